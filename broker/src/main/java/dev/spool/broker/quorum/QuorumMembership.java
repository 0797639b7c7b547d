package dev.spool.broker.quorum;

import dev.spool.protocol.types.Uuid;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The voters of the metadata quorum, and how a dynamic quorum's change (KIP-853's AddRaftVoter and RemoveRaftVoter):
 * asked of the active controller, a change completes once the quorum has committed it. A static quorum refuses
 * changes with UNSUPPORTED_VERSION, as Kafka's does at {@code kraft.version} 0. Failures are {@link VoterChangeRefused}
 * (with the protocol's error) or {@code NotControllerException}. Thread-safe.
 */
public interface QuorumMembership {

    /** Whether the voters are the quorum's own (a dynamic quorum, {@code kraft.version} 1). */
    boolean isDynamic();

    /** The voters now, at their controller listeners, with their directory ids (zero in a static quorum). */
    List<QuorumVoter> currentVoters();

    /** Adds {@code voter} (at its controller listener), once it has caught up with the log. */
    CompletableFuture<Void> addVoter(QuorumVoter voter);

    /** Removes the voter {@code nodeId} whose metadata log dir is {@code directoryId}. */
    CompletableFuture<Void> removeVoter(int nodeId, Uuid directoryId);
}
