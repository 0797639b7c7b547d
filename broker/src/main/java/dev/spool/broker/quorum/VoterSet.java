package dev.spool.broker.quorum;

import java.util.List;

/**
 * Who a voter of the metadata quorum is and which voters it starts with: {@code self} and {@code voters} at their
 * controller listeners (their Raft servers listen {@code raftPortOffset} ports above). A static quorum's voters are
 * {@code controller.quorum.voters}, for ever; a dynamic quorum's (KIP-853) are the ones {@code bin/spool format} named,
 * on the first start only (none: this voter waits to be added), then whatever AddRaftVoter and RemoveRaftVoter made
 * them, as the Raft log keeps them. Immutable.
 */
public record VoterSet(QuorumVoter self, List<QuorumVoter> voters, boolean dynamic, int raftPortOffset) {

    public VoterSet {
        voters = List.copyOf(voters);
    }

    /** A static quorum of {@code voters}, one of which is {@code nodeId}, their Raft servers {@code raftPortOffset} up. */
    public static VoterSet ofStatic(int nodeId, List<QuorumVoter> voters, int raftPortOffset) {
        QuorumVoter self = voters.stream().filter(voter -> voter.nodeId() == nodeId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("node " + nodeId
                        + " is not among controller.quorum.voters " + voters));
        return new VoterSet(self, voters, false, raftPortOffset);
    }

    /** Whether this voter is among the voters it starts with (a dynamic quorum's new voter is not). */
    boolean includesSelf() {
        return voters.stream().anyMatch(voter -> voter.nodeId() == self.nodeId()
                && voter.directoryId().equals(self.directoryId()));
    }
}
