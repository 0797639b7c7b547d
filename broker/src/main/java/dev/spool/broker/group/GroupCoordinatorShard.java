package dev.spool.broker.group;

import dev.spool.broker.DeliberateFault;
import dev.spool.broker.coordinator.CoordinatorShard;
import dev.spool.broker.coordinator.CoordinatorTimer;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.LeadershipMovedException;
import dev.spool.protocol.Errors;
import dev.spool.protocol.group.GroupMetadataKeyData;
import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.GroupMetadataValueData.MemberMetadata;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of the groups whose id hashes to one {@code __consumer_offsets} partition: their
 * membership ({@link ClassicGroupMembership}), their committed offsets ({@link OffsetCommits}) and
 * the records behind both. On load it replays the partition; afterwards every committed offset,
 * offset deletion and group deletion is a record appended first and applied second, so a restart
 * rebuilds exactly what was acknowledged. Live membership (who is joined, parked requests) is kept in
 * memory, and each completed generation is written as a GroupMetadata record, which is what replay
 * restores. Not thread-safe: owned by the coordinator thread.
 */
final class GroupCoordinatorShard implements CoordinatorShard, ConsumerGroupReplay.Groups {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinatorShard.class);

    private final int partition;
    private final CoordinatorLog log;
    private final CoordinatorTimer timer;
    private final LongSupplier clockMs;
    private final GroupSettings settings;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    /** Groups of the consumer protocol (KIP-848); a group id is in one of the two maps at most. */
    private final Map<String, ConsumerGroup> consumerGroups = new HashMap<>();
    private final OffsetStore offsets = new OffsetStore();
    /** Offsets committed in a producer's open transaction (TxnOffsetCommit): they count once it commits. */
    private final Map<Long, List<CoordinatorRecord>> transactionalOffsets = new HashMap<>();
    private final ClassicGroupMembership membership;
    private final Function<String, TopicImage> topics;
    private final ConsumerGroupHeartbeats consumerHeartbeats;
    private final OffsetCommits offsetCommits;
    private final GroupMigration migration;
    private final ConsumerGroupClassicMembers classicMembers;

    /** A shard whose consumer groups find no topics (tests of classic groups and offsets). */
    GroupCoordinatorShard(int partition, CoordinatorLog log, CoordinatorTimer timer, LongSupplier clockMs,
                          GroupSettings settings) {
        this(partition, log, timer, clockMs, settings, name -> null);
    }

    /** A shard whose consumer groups look their subscribed topics up by name only (tests without expressions). */
    GroupCoordinatorShard(int partition, CoordinatorLog log, CoordinatorTimer timer, LongSupplier clockMs,
                          GroupSettings settings, Function<String, TopicImage> topics) {
        this(partition, log, timer, clockMs, settings, topics, List::of);
    }

    /**
     * A shard whose consumer groups look their subscribed topics up with {@code topics} and match their regular
     * expressions against {@code allTopics} (both the metadata image's).
     */
    GroupCoordinatorShard(int partition, CoordinatorLog log, CoordinatorTimer timer, LongSupplier clockMs,
                          GroupSettings settings, Function<String, TopicImage> topics,
                          Supplier<Collection<TopicImage>> allTopics) {
        this.partition = partition;
        this.log = log;
        this.timer = timer;
        this.clockMs = clockMs;
        this.settings = settings;
        this.membership = new ClassicGroupMembership(this);
        this.topics = topics;
        this.consumerHeartbeats = new ConsumerGroupHeartbeats(this, topics, new TopicRegexes(allTopics));
        this.offsetCommits = new OffsetCommits(this);
        this.migration = new GroupMigration(this);
        this.classicMembers = new ConsumerGroupClassicMembers(this);
    }

    int partition() {
        return partition;
    }

    /** Rebuilds the state by replaying the partition, then starts the session timers of restored members. */
    @Override
    public void load() throws IOException {
        long startMs = clockMs.getAsLong();
        log.replay(new CoordinatorLog.TransactionalReplay() {
            @Override
            public void record(long producerId, CoordinatorRecord record) {
                if (producerId < 0) {
                    replay(record);
                } else {
                    transactionalOffsets.computeIfAbsent(producerId, id -> new ArrayList<>()).add(record);
                }
            }

            @Override
            public void marker(long producerId, boolean commit) {
                completeTransaction(producerId, commit);
            }
        });
        for (ClassicGroup group : groups.values()) {
            membership.onLoaded(group);
        }
        for (ConsumerGroup group : consumerGroups.values()) {
            consumerHeartbeats.onLoaded(group);
        }
        if (!groups.isEmpty() || !consumerGroups.isEmpty()) {
            LOG.info("Loaded __consumer_offsets-{}: {} groups, {} committed offsets in {} ms", partition,
                    groups.size() + consumerGroups.size(), offsets.size(), clockMs.getAsLong() - startMs);
        }
    }

    /** Leadership of the partition moved: parked joins and syncs hear NOT_COORDINATOR and find the new one. */
    @Override
    public void unload() {
        membership.answerParked(Errors.NOT_COORDINATOR);
    }

    ClassicGroupMembership membership() {
        return membership;
    }

    /** The topic as the metadata has it now, or null. */
    TopicImage topic(String name) {
        return topics.apply(name);
    }

    ConsumerGroupHeartbeats consumerHeartbeats() {
        return consumerHeartbeats;
    }

    GroupMigration migration() {
        return migration;
    }

    ConsumerGroupClassicMembers classicMembers() {
        return classicMembers;
    }

    OffsetCommits offsetCommits() {
        return offsetCommits;
    }

    CoordinatorTimer timer() {
        return timer;
    }

    long nowMs() {
        return clockMs.getAsLong();
    }

    GroupSettings settings() {
        return settings;
    }

    ClassicGroup group(String groupId) {
        return groups.get(groupId);
    }

    Collection<ClassicGroup> groups() {
        return groups.values();
    }

    Collection<ConsumerGroup> consumerGroups() {
        return consumerGroups.values();
    }

    OffsetStore offsets() {
        return offsets;
    }

    /**
     * The consumer-protocol group, created if {@code create} and missing. A classic group of that id that only holds
     * offsets (no protocol, no members: a simple consumer's commits) gives way to it, as in Kafka; a classic group
     * with a protocol must have been deleted (its tombstone) before its id can name a consumer group.
     */
    @Override
    public ConsumerGroup consumerGroup(String groupId, boolean create) {
        ConsumerGroup group = consumerGroups.get(groupId);
        if (group != null || !create) {
            return group;
        }
        ClassicGroup classic = groups.get(groupId);
        if (classic != null) {
            if (classic.protocolType() != null || !classic.isEmpty() || !classic.pendingMembers().isEmpty()) {
                throw new IllegalStateException("Group " + groupId + " is a classic group in use, not a consumer "
                        + "group");
            }
            groups.remove(groupId);
        }
        group = new ConsumerGroup(groupId);
        consumerGroups.put(groupId, group);
        return group;
    }

    @Override
    public void removeConsumerGroup(String groupId) {
        consumerGroups.remove(groupId);
        keepOffsetsGroup(groupId);
    }

    /**
     * A group removed while offsets of its remain (it changed protocol, or a member's first heartbeat failed) stays
     * as the offsets-only group a simple consumer's commits make, so that its offsets can still expire and be
     * deleted. A group joining under its id replaces it.
     */
    private void keepOffsetsGroup(String groupId) {
        if (offsets.hasOffsets(groupId) && !groups.containsKey(groupId) && !consumerGroups.containsKey(groupId)) {
            groups.put(groupId, new ClassicGroup(groupId, nowMs()));
        }
    }

    /** A classic group built from a consumer group whose records are written (a downgrade). */
    void adopt(ClassicGroup group) {
        groups.put(group.groupId(), group);
    }

    /** A new, empty group kept in memory until its first record. */
    ClassicGroup createGroup(String groupId) {
        ClassicGroup group = new ClassicGroup(groupId, nowMs());
        groups.put(groupId, group);
        return group;
    }

    /** Forgets a group that never got a record and has nothing to keep (a failed first join). */
    void maybeForget(ClassicGroup group) {
        if (group.isEmpty() && group.pendingMembers().isEmpty() && group.generationId() == 0
                && !offsets.hasOffsets(group.groupId())) {
            groups.remove(group.groupId());
        }
    }

    /**
     * Appends the records, then applies them; false (and nothing applied) if the append failed. The
     * caller acknowledges only after true.
     */
    boolean write(List<CoordinatorRecord> records) {
        if (!append(records, () -> log.append(records))) {
            return false;
        }
        for (CoordinatorRecord record : records) {
            applyLive(record);
        }
        return true;
    }

    /**
     * Appends offset commits in producer {@code producerId}'s transaction; they are held aside until its marker
     * ({@link #completeTransaction}). NONE; INVALID_PRODUCER_EPOCH for a producer fenced by a newer epoch; or
     * COORDINATOR_NOT_AVAILABLE if the append failed. Nothing is held unless NONE.
     */
    Errors writeTransactional(List<CoordinatorRecord> records, long producerId, short producerEpoch) {
        boolean[] written = new boolean[1];
        if (!append(records, () -> written[0] = log.appendTransactional(records, producerId, producerEpoch))) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (!written[0]) {
            return Errors.INVALID_PRODUCER_EPOCH;
        }
        transactionalOffsets.computeIfAbsent(producerId, id -> new ArrayList<>()).addAll(records);
        return Errors.NONE;
    }

    /** An append to the log. */
    @FunctionalInterface
    private interface Append {
        void run() throws IOException;
    }

    /** Runs {@code append} of {@code records}; false, logged, if it failed. */
    private boolean append(List<CoordinatorRecord> records, Append append) {
        try {
            append.run();
            return true;
        } catch (LeadershipMovedException e) {
            // The shard is being unloaded: the client finds the new coordinator.
            LOG.info("Cannot append {} records to __consumer_offsets-{}: {}", records.size(), partition, e.getMessage());
            return false;
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot append {} records to __consumer_offsets-{}", records.size(), partition, e);
            return false;
        }
    }

    /** The producer's transaction ended (its marker is in this partition): its offsets count if it committed. */
    void completeTransaction(long producerId, boolean commit) {
        List<CoordinatorRecord> held = transactionalOffsets.remove(producerId);
        if (held != null && (commit || DeliberateFault.is(DeliberateFault.TXN_OFFSETS_KEPT_AT_ABORT))) {
            held.forEach(this::replay);
        }
    }

    /** Whether an open transaction committed an offset of this group's partition (OffsetFetch's require_stable). */
    boolean hasTransactionalOffset(String groupId, String topic, int partition) {
        for (List<CoordinatorRecord> held : transactionalOffsets.values()) {
            for (CoordinatorRecord record : held) {
                OffsetCommitKeyData key = (OffsetCommitKeyData) record.key();
                if (key.group().equals(groupId) && key.topic().equals(topic) && key.partition() == partition) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A record read back on load: offsets, tombstones, classic groups' generations and consumer groups' state. */
    void replay(CoordinatorRecord record) {
        if (record.isOffsetCommit()) {
            applyOffset(record);
            return;
        }
        if (record.keyVersion() != CoordinatorRecord.GROUP_METADATA_KEY_VERSION) {
            ConsumerGroupReplay.apply(record, this);
            return;
        }
        String groupId = ((GroupMetadataKeyData) record.key()).group();
        if (record.isTombstone()) {
            groups.remove(groupId);
            keepOffsetsGroup(groupId);
            return;
        }
        if (consumerGroups.containsKey(groupId)) {
            throw new IllegalStateException("Group " + groupId + " is a consumer group, not a classic group");
        }
        ClassicGroup group = restore(groupId, (GroupMetadataValueData) record.value());
        groups.put(groupId, group);
    }

    /**
     * A record this coordinator just wrote. Offsets and tombstones apply as on replay; a live group's
     * GroupMetadata record only snapshots what the membership already holds in memory.
     */
    private void applyLive(CoordinatorRecord record) {
        if (record.isOffsetCommit()) {
            applyOffset(record);
        } else if (record.keyVersion() != CoordinatorRecord.GROUP_METADATA_KEY_VERSION) {
            ConsumerGroupReplay.apply(record, this);
        } else if (record.isTombstone()) {
            String groupId = ((GroupMetadataKeyData) record.key()).group();
            ClassicGroup removed = groups.remove(groupId);
            if (removed != null) {
                removed.transitionTo(GroupState.DEAD, nowMs());
            }
            keepOffsetsGroup(groupId);
        }
    }

    private void applyOffset(CoordinatorRecord record) {
        OffsetCommitKeyData key = (OffsetCommitKeyData) record.key();
        if (record.isTombstone()) {
            offsets.remove(key.group(), key.topic(), key.partition());
            return;
        }
        OffsetCommitValueData value = (OffsetCommitValueData) record.value();
        offsets.put(key.group(), key.topic(), key.partition(), new CommittedOffset(value.offset(),
                value.leaderEpoch(), value.metadata(), value.commitTimestamp(), value.expireTimestamp()));
        // A commit by a simple consumer (no group management) creates the group, as Kafka does.
        if (!consumerGroups.containsKey(key.group())) {
            groups.computeIfAbsent(key.group(), id -> new ClassicGroup(id, value.commitTimestamp()));
        }
    }

    private static ClassicGroup restore(String groupId, GroupMetadataValueData value) {
        ClassicGroup group = new ClassicGroup(groupId, value.currentStateTimestamp());
        for (MemberMetadata member : value.members()) {
            Member restored = new Member(member.memberId(), member.groupInstanceId(), member.clientId(),
                    member.clientHost(), member.rebalanceTimeout() < 0 ? member.sessionTimeout()
                    : member.rebalanceTimeout(), member.sessionTimeout(),
                    List.of(new MemberProtocol(value.protocol(), member.subscription())));
            restored.setAssignment(member.assignment());
            group.add(restored);
        }
        String protocolType = value.protocolType() == null || value.protocolType().isEmpty() ? null
                : value.protocolType();
        group.restore(value.members().isEmpty() ? GroupState.EMPTY : GroupState.STABLE, value.generation(),
                protocolType, value.protocol(), value.members().isEmpty() ? null : value.leader(),
                value.currentStateTimestamp() < 0 ? 0 : value.currentStateTimestamp());
        return group;
    }

    /** The group's generation as a GroupMetadata record (Kafka's snapshot of a classic group). */
    static CoordinatorRecord groupMetadataRecord(ClassicGroup group) {
        List<MemberMetadata> members = new ArrayList<>(group.size());
        for (Member member : group.members()) {
            byte[] subscription = group.protocolName() == null ? null : member.metadata(group.protocolName());
            members.add(new MemberMetadata()
                    .setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId())
                    .setClientId(member.clientId())
                    .setClientHost(member.clientHost())
                    .setRebalanceTimeout(member.rebalanceTimeoutMs())
                    .setSessionTimeout(member.sessionTimeoutMs())
                    .setSubscription(subscription == null ? new byte[0] : subscription)
                    .setAssignment(member.assignment()));
        }
        GroupMetadataValueData value = new GroupMetadataValueData()
                .setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setGeneration(group.generationId())
                .setProtocol(group.protocolName())
                .setLeader(group.isEmpty() ? null : group.leaderId())
                .setCurrentStateTimestamp(group.currentStateTimestampMs())
                .setMembers(members);
        return CoordinatorRecord.groupMetadata(group.groupId(), value);
    }

    @Override
    public String toString() {
        return "GroupCoordinatorShard(__consumer_offsets-" + partition + ")";
    }
}
