package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Moves a consumer-protocol member (KIP-848) one step towards its share of the target assignment: revoke before
 * assign. A member that must give up partitions keeps its epoch and waits in UNREVOKED_PARTITIONS until its heartbeat
 * no longer lists them; only then does it reach the target's epoch and get new partitions, and only those no other
 * member still holds (the rest wait, in UNRELEASED_PARTITIONS). So a partition is never owned by two members at once.
 * Stateless and thread-safe.
 */
final class MemberReconciliation {

    /** Who holds a partition now: the epoch of the member owning it (assigned or pending revocation), or -1. */
    @FunctionalInterface
    interface PartitionOwners {
        int epochOf(Uuid topicId, int partition);
    }

    private MemberReconciliation() {
    }

    /**
     * The member after this step.
     *
     * @param owned the partitions the member's heartbeat says it owns, or null if it did not say (it then still
     *              owns what it was asked to revoke)
     */
    static ConsumerGroupMember reconcile(ConsumerGroupMember member, int targetEpoch, PartitionAssignment target,
                                         PartitionAssignment owned, PartitionOwners owners) {
        return switch (member.state()) {
            case STABLE -> member.memberEpoch() == targetEpoch ? member
                    : nextAssignment(member, member.memberEpoch(), targetEpoch, target, owned, owners);
            case UNREVOKED_PARTITIONS -> stillOwnsAny(owned, member.pendingRevocation()) ? member
                    : nextAssignment(member, member.memberEpoch(), targetEpoch, target, owned, owners);
            case UNRELEASED_PARTITIONS, UNKNOWN ->
                    nextAssignment(member, member.memberEpoch(), targetEpoch, target, owned, owners);
        };
    }

    private static ConsumerGroupMember nextAssignment(ConsumerGroupMember member, int memberEpoch, int targetEpoch,
                                                      PartitionAssignment target, PartitionAssignment owned,
                                                      PartitionOwners owners) {
        Map<Uuid, List<Integer>> kept = new HashMap<>();
        Map<Uuid, List<Integer>> revoked = new HashMap<>();
        Map<Uuid, List<Integer>> given = new HashMap<>();
        boolean unreleased = false;
        Set<Uuid> topics = new HashSet<>(target.topicIds());
        topics.addAll(member.assigned().topicIds());
        for (Uuid topicId : topics) {
            Set<Integer> wanted = target.partitions(topicId);
            for (int partition : member.assigned().partitions(topicId)) {
                (wanted.contains(partition) ? kept : revoked).computeIfAbsent(topicId, id -> new ArrayList<>())
                        .add(partition);
            }
            for (int partition : wanted) {
                if (member.assigned().contains(topicId, partition)) {
                    continue;
                }
                if (owners.epochOf(topicId, partition) == -1) {
                    given.computeIfAbsent(topicId, id -> new ArrayList<>()).add(partition);
                } else {
                    unreleased = true;
                }
            }
        }
        PartitionAssignment toRevoke = PartitionAssignment.of(revoked);
        if (!toRevoke.isEmpty() && stillOwnsAny(owned, toRevoke)) {
            PartitionAssignment keeping = PartitionAssignment.of(kept);
            return member.withAssignment(memberEpoch, member.previousMemberEpoch(), MemberState.UNREVOKED_PARTITIONS,
                    keeping, toRevoke, member.assignmentEpochs().forOwned(keeping, memberEpoch));
        }
        given.forEach((topicId, partitions) -> kept.computeIfAbsent(topicId, id -> new ArrayList<>())
                .addAll(partitions));
        PartitionAssignment owning = PartitionAssignment.of(kept);
        return member.withAssignment(targetEpoch, memberEpoch,
                unreleased ? MemberState.UNRELEASED_PARTITIONS : MemberState.STABLE, owning,
                PartitionAssignment.EMPTY, member.assignmentEpochs().forOwned(owning, targetEpoch));
    }

    /** Whether the member may still own any of {@code revoking}: it said it owns one, or it said nothing. */
    private static boolean stillOwnsAny(PartitionAssignment owned, PartitionAssignment revoking) {
        if (owned == null) {
            return true;
        }
        boolean[] any = new boolean[1];
        revoking.forEachPartition((topicId, partition) -> any[0] |= owned.contains(topicId, partition));
        return any[0];
    }
}
