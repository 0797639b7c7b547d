package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A consumer-protocol group (KIP-848) as its records on {@code __consumer_offsets} describe it: the group epoch
 * (bumped whenever membership or subscriptions change), the target assignment and its epoch, each member with its
 * current assignment, and the topics each subscribed regular expression resolved to. It also knows, for every
 * partition some member owns or still has to revoke, that member's epoch: a partition is handed to a new owner only
 * once no one holds it. Not thread-safe: owned by the coordinator thread.
 */
final class ConsumerGroup {

    /** What a subscribed regular expression resolved to, when, and against which version of the metadata. */
    record ResolvedRegex(Set<String> topics, long version, long timestampMs) {
    }

    private final String groupId;
    private int groupEpoch;
    private long metadataHash;
    private int assignmentEpoch;
    private long assignmentTimestampMs;
    private final Map<String, ConsumerGroupMember> members = new HashMap<>();
    private final Map<String, PartitionAssignment> targetAssignment = new HashMap<>();
    private final Map<Uuid, Map<Integer, Integer>> partitionEpochs = new HashMap<>();
    private final Map<String, ResolvedRegex> regexes = new HashMap<>();

    ConsumerGroup(String groupId) {
        this.groupId = groupId;
    }

    String groupId() {
        return groupId;
    }

    int groupEpoch() {
        return groupEpoch;
    }

    long metadataHash() {
        return metadataHash;
    }

    void setGroupEpoch(int epoch, long hash) {
        this.groupEpoch = epoch;
        this.metadataHash = hash;
    }

    int assignmentEpoch() {
        return assignmentEpoch;
    }

    long assignmentTimestampMs() {
        return assignmentTimestampMs;
    }

    void setAssignmentEpoch(int epoch, long timestampMs) {
        this.assignmentEpoch = epoch;
        this.assignmentTimestampMs = timestampMs;
    }

    ConsumerGroupMember member(String memberId) {
        return members.get(memberId);
    }

    /** The member with that instance id (a static member), or null. */
    ConsumerGroupMember staticMember(String instanceId) {
        for (ConsumerGroupMember member : members.values()) {
            if (instanceId.equals(member.instanceId())) {
                return member;
            }
        }
        return null;
    }

    Collection<ConsumerGroupMember> members() {
        return Collections.unmodifiableCollection(members.values());
    }

    /** The members by id, a copy the caller may change (to compute a target with a member added or removed). */
    Map<String, ConsumerGroupMember> membersById() {
        return new HashMap<>(members);
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    /**
     * Adds or replaces a member, moving the partition epochs from what it owned to what it owns now. A partition
     * another member still owns cannot be given: that is a broken log or a broken reconciliation, and it is refused.
     */
    void putMember(ConsumerGroupMember member) {
        ConsumerGroupMember old = members.put(member.memberId(), member);
        if (old != null) {
            releasePartitions(old);
        }
        claimPartitions(member);
    }

    void removeMember(String memberId) {
        ConsumerGroupMember old = members.remove(memberId);
        if (old != null) {
            releasePartitions(old);
        }
    }

    /** The epoch of the member owning the partition (assigned or pending revocation), or -1 if no one does. */
    int partitionEpoch(Uuid topicId, int partition) {
        Map<Integer, Integer> epochs = partitionEpochs.get(topicId);
        Integer epoch = epochs == null ? null : epochs.get(partition);
        return epoch == null ? -1 : epoch;
    }

    /** The member's share of the target assignment (empty if it has none). */
    PartitionAssignment target(String memberId) {
        return targetAssignment.getOrDefault(memberId, PartitionAssignment.EMPTY);
    }

    Map<String, PartitionAssignment> targetAssignment() {
        return Collections.unmodifiableMap(targetAssignment);
    }

    void putTarget(String memberId, PartitionAssignment partitions) {
        targetAssignment.put(memberId, partitions);
    }

    void removeTarget(String memberId) {
        targetAssignment.remove(memberId);
    }

    /** The regular expressions the group has resolved (their records). */
    Set<String> regexes() {
        return Collections.unmodifiableSet(regexes.keySet());
    }

    /** Whether a member subscribes to the topic, by name or through a resolved regular expression. */
    boolean isSubscribedTo(String topic) {
        for (ConsumerGroupMember member : members.values()) {
            if (member.subscribedTopicNames().contains(topic)) {
                return true;
            }
        }
        for (ResolvedRegex resolved : regexes.values()) {
            if (resolved.topics().contains(topic)) {
                return true;
            }
        }
        return false;
    }

    ResolvedRegex regex(String regex) {
        return regexes.get(regex);
    }

    void putRegex(String regex, ResolvedRegex resolved) {
        regexes.put(regex, resolved);
    }

    void removeRegex(String regex) {
        regexes.remove(regex);
    }

    ConsumerGroupState state() {
        if (members.isEmpty()) {
            return ConsumerGroupState.EMPTY;
        }
        if (groupEpoch > assignmentEpoch) {
            return ConsumerGroupState.ASSIGNING;
        }
        for (ConsumerGroupMember member : members.values()) {
            // A static member away (left with epoch -2) keeps its share until it returns or its session ends.
            if (!member.isAway() && member.memberEpoch() != assignmentEpoch || member.state() != MemberState.STABLE) {
                return ConsumerGroupState.RECONCILING;
            }
        }
        return ConsumerGroupState.STABLE;
    }

    private void claimPartitions(ConsumerGroupMember member) {
        PartitionAssignment.PartitionAction claim = (topicId, partition) -> {
            Integer held = partitionEpochs.computeIfAbsent(topicId, id -> new HashMap<>())
                    .putIfAbsent(partition, member.memberEpoch());
            if (held != null) {
                throw new IllegalStateException("Group " + groupId + ": partition " + partition + " of topic "
                        + topicId + " given to member " + member.memberId() + " at epoch " + member.memberEpoch()
                        + " is still owned at epoch " + held);
            }
        };
        member.assigned().forEachPartition(claim);
        member.pendingRevocation().forEachPartition(claim);
    }

    private void releasePartitions(ConsumerGroupMember member) {
        PartitionAssignment.PartitionAction release = (topicId, partition) -> {
            Map<Integer, Integer> epochs = partitionEpochs.get(topicId);
            if (epochs != null && epochs.remove(partition, member.memberEpoch()) && epochs.isEmpty()) {
                partitionEpochs.remove(topicId);
            }
        };
        member.assigned().forEachPartition(release);
        member.pendingRevocation().forEachPartition(release);
    }

    @Override
    public String toString() {
        return "ConsumerGroup(" + groupId + ", epoch " + groupEpoch + ", " + members.size() + " members)";
    }
}
