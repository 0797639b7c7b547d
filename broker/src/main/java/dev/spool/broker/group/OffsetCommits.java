package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import dev.spool.protocol.message.OffsetDeleteRequestData;
import dev.spool.protocol.message.OffsetDeleteRequestData.OffsetDeleteRequestPartition;
import dev.spool.protocol.message.OffsetDeleteRequestData.OffsetDeleteRequestTopic;
import dev.spool.protocol.message.OffsetDeleteResponseData;
import dev.spool.protocol.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import dev.spool.protocol.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import dev.spool.protocol.message.TxnOffsetCommitRequestData;
import dev.spool.protocol.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import dev.spool.protocol.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import dev.spool.protocol.message.TxnOffsetCommitResponseData;
import dev.spool.protocol.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition;
import dev.spool.protocol.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets of one shard: OffsetCommit (acknowledged only once its records are in the log),
 * OffsetFetch, OffsetDelete and the expiry of {@code offsets.retention.minutes}. Not thread-safe:
 * owned by the coordinator thread.
 */
final class OffsetCommits {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetCommits.class);
    /** OffsetCommit v2-4 carry a retention time; -1 means the broker's. */
    private static final long DEFAULT_RETENTION = -1L;
    private static final String CONSUMER_PROTOCOL_TYPE = "consumer";
    /** OffsetCommit v9 carries a consumer-protocol member's epoch where earlier versions carry a generation. */
    private static final short FIRST_MEMBER_EPOCH_VERSION = 9;

    private final GroupCoordinatorShard shard;

    OffsetCommits(GroupCoordinatorShard shard) {
        this.shard = shard;
    }

    OffsetCommitResponseData commit(OffsetCommitRequestData request, short version) {
        ClassicGroup group = shard.group(request.groupId());
        ConsumerGroup consumerGroup = shard.consumerGroup(request.groupId(), false);
        Errors groupError = consumerGroup != null ? validateConsumerCommit(consumerGroup, request, version)
                : validateCommit(group, request);
        ConsumerGroupMember olderEpoch = consumerGroup == null || groupError != null ? null
                : olderEpochCommitter(consumerGroup, request.memberId(), request.generationIdOrMemberEpoch());
        long nowMs = shard.nowMs();
        long expireMs = version >= 2 && version <= 4 && request.retentionTimeMs() != DEFAULT_RETENTION
                ? nowMs + request.retentionTimeMs() : CommittedOffset.NO_EXPIRY;
        List<CoordinatorRecord> records = new ArrayList<>();
        List<OffsetCommitResponsePartition> written = new ArrayList<>();
        List<OffsetCommitResponseTopic> topics = new ArrayList<>(request.topics().size());
        for (OffsetCommitRequestTopic topic : request.topics()) {
            List<OffsetCommitResponsePartition> partitions = new ArrayList<>(topic.partitions().size());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                OffsetCommitResponsePartition answer = new OffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex());
                partitions.add(answer);
                Errors error = groupError != null ? groupError
                        : olderEpoch != null && !ownedAt(olderEpoch, topic.name(), partition.partitionIndex(),
                        request.generationIdOrMemberEpoch()) ? Errors.STALE_MEMBER_EPOCH
                        : offsetRecord(request.groupId(), topic.name(), partition.partitionIndex(),
                        partition.committedOffset(), partition.committedLeaderEpoch(), partition.committedMetadata(),
                        nowMs, expireMs, records);
                if (error != null) {
                    answer.setErrorCode(error.code());
                } else {
                    written.add(answer);
                }
            }
            topics.add(new OffsetCommitResponseTopic().setName(topic.name()).setTopicId(topic.topicId())
                    .setPartitions(partitions));
        }
        if (!records.isEmpty() && !shard.write(records)) {
            written.forEach(answer -> answer.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code()));
        }
        if (group != null && groupError == null && group.hasMember(request.memberId())) {
            shard.membership().scheduleSession(group, group.member(request.memberId()));
        }
        return new OffsetCommitResponseData().setTopics(topics);
    }

    /**
     * TxnOffsetCommit: offsets committed in producer {@code producerId}'s transaction, written as its transactional
     * batch and counted once its COMMIT marker follows (dropped at its ABORT). Who may commit as for OffsetCommit from
     * v3 (generation, member); before, anyone. A group not known yet is created, as Kafka does.
     */
    TxnOffsetCommitResponseData commitTransactional(TxnOffsetCommitRequestData request) {
        ClassicGroup group = shard.group(request.groupId());
        ConsumerGroup consumerGroup = shard.consumerGroup(request.groupId(), false);
        Errors groupError = consumerGroup != null ? validateConsumerTransactionalCommit(consumerGroup, request)
                : group == null ? null : validateTransactionalCommit(group, request);
        ConsumerGroupMember olderEpoch = consumerGroup == null || groupError != null ? null
                : olderEpochCommitter(consumerGroup, request.memberId(), request.generationIdOrMemberEpoch());
        long nowMs = shard.nowMs();
        List<CoordinatorRecord> records = new ArrayList<>();
        List<TxnOffsetCommitResponsePartition> written = new ArrayList<>();
        List<TxnOffsetCommitResponseTopic> topics = new ArrayList<>(request.topics().size());
        for (TxnOffsetCommitRequestTopic topic : request.topics()) {
            List<TxnOffsetCommitResponsePartition> partitions = new ArrayList<>(topic.partitions().size());
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                TxnOffsetCommitResponsePartition answer = new TxnOffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex());
                partitions.add(answer);
                Errors error = groupError != null ? groupError
                        : olderEpoch != null && !ownedAt(olderEpoch, topic.name(), partition.partitionIndex(),
                        request.generationIdOrMemberEpoch()) ? Errors.ILLEGAL_GENERATION
                        : offsetRecord(request.groupId(), topic.name(), partition.partitionIndex(),
                        partition.committedOffset(), partition.committedLeaderEpoch(), partition.committedMetadata(),
                        nowMs, CommittedOffset.NO_EXPIRY, records);
                if (error != null) {
                    answer.setErrorCode(error.code());
                } else {
                    written.add(answer);
                }
            }
            topics.add(new TxnOffsetCommitResponseTopic().setName(topic.name()).setPartitions(partitions));
        }
        Errors refused = records.isEmpty() ? Errors.NONE
                : shard.writeTransactional(records, request.producerId(), request.producerEpoch());
        if (refused != Errors.NONE) {
            written.forEach(answer -> answer.setErrorCode(refused.code()));
        }
        return new TxnOffsetCommitResponseData().setTopics(topics);
    }

    /**
     * Adds the record of one committed offset to {@code records}, stored as sent (even kafkajs's -2 for "earliest"
     * after admin.resetOffsets); or, with metadata over offset.metadata.max.bytes, returns OFFSET_METADATA_TOO_LARGE.
     */
    private Errors offsetRecord(String groupId, String topic, int partition, long offset, int leaderEpoch,
                                String metadata, long nowMs, long expireMs, List<CoordinatorRecord> records) {
        String stored = metadata == null ? "" : metadata;
        if (stored.getBytes(StandardCharsets.UTF_8).length > shard.settings().offsetMetadataMaxBytes()) {
            return Errors.OFFSET_METADATA_TOO_LARGE;
        }
        records.add(CoordinatorRecord.offsetCommit(groupId, topic, partition,
                new CommittedOffset(offset, leaderEpoch, stored, nowMs, expireMs)));
        return null;
    }

    /**
     * TxnOffsetCommit to a consumer-protocol group: without member information (before v3), anyone, as for classic
     * groups; with it, a member at its epoch, or an older one for the partitions it owned then (KIP-1251); else
     * ILLEGAL_GENERATION, as Kafka answers a transactional commit.
     */
    private static Errors validateConsumerTransactionalCommit(ConsumerGroup group, TxnOffsetCommitRequestData request) {
        String memberId = request.memberId();
        if (memberId == null || memberId.isEmpty()) {
            return null;
        }
        ConsumerGroupMember member = group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        int epoch = request.generationIdOrMemberEpoch();
        return epoch < 0 || epoch <= member.memberEpoch() ? null : Errors.ILLEGAL_GENERATION;
    }

    private Errors validateTransactionalCommit(ClassicGroup group, TxnOffsetCommitRequestData request) {
        if (group.isIn(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        String memberId = request.memberId();
        if (memberId != null && !memberId.isEmpty() && !group.hasMember(memberId)) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        int generation = request.generationIdOrMemberEpoch();
        return generation >= 0 && generation != group.generationId() ? Errors.ILLEGAL_GENERATION : null;
    }

    /**
     * Who may commit: a member of the current generation; or, with generation -1 and no member id,
     * anyone while the group has no members (a consumer without group management, or an admin tool).
     */
    private Errors validateCommit(ClassicGroup group, OffsetCommitRequestData request) {
        boolean simple = request.generationIdOrMemberEpoch() < 0;
        if (group == null) {
            return simple && (request.memberId() == null || request.memberId().isEmpty()) ? null
                    : Errors.ILLEGAL_GENERATION;
        }
        if (group.isIn(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (simple && group.isIn(GroupState.EMPTY)) {
            return null;
        }
        if (group.isIn(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        Errors invalid = shard.membership().validateMember(group, request.memberId(), request.groupInstanceId());
        if (invalid != null) {
            return invalid;
        }
        return request.generationIdOrMemberEpoch() == group.generationId() ? null : Errors.ILLEGAL_GENERATION;
    }

    /**
     * Who may commit a consumer-protocol group's offsets (KIP-848): anyone while it is empty (an admin's reset);
     * otherwise one of its members at its current epoch, or at an older one for the partitions it already owned then
     * (KIP-1251, checked per partition). A newer epoch is STALE_MEMBER_EPOCH; before v9 a member epoch is a
     * generation (ILLEGAL_GENERATION).
     */
    private static Errors validateConsumerCommit(ConsumerGroup group, OffsetCommitRequestData request, short version) {
        boolean admin = request.generationIdOrMemberEpoch() < 0
                && (request.memberId() == null || request.memberId().isEmpty());
        if (admin) {
            return group.isEmpty() ? null : Errors.UNKNOWN_MEMBER_ID;
        }
        ConsumerGroupMember holder = request.groupInstanceId() == null ? null
                : group.staticMember(request.groupInstanceId());
        if (holder != null && !holder.memberId().equals(request.memberId())) {
            return Errors.FENCED_INSTANCE_ID; // replaced by a newer member of its instance
        }
        ConsumerGroupMember member = group.member(request.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (version < FIRST_MEMBER_EPOCH_VERSION && !member.usesClassicProtocol()) {
            return Errors.UNSUPPORTED_VERSION; // as Kafka: a consumer-protocol member commits with its epoch (v9+)
        }
        int epoch = request.generationIdOrMemberEpoch();
        if (epoch == member.memberEpoch() || epoch < member.memberEpoch() && version >= FIRST_MEMBER_EPOCH_VERSION
                && !member.usesClassicProtocol()) {
            return null; // an older epoch is checked partition by partition (ownedAt)
        }
        // A classic member (a group being migrated) commits at its generation, as the classic protocol does.
        return version >= FIRST_MEMBER_EPOCH_VERSION && !member.usesClassicProtocol() ? Errors.STALE_MEMBER_EPOCH
                : Errors.ILLEGAL_GENERATION;
    }

    /**
     * Who may fetch a consumer group's offsets (OffsetFetch v9+, KIP-848): anyone not naming a member (an admin);
     * a member at its current epoch (else STALE_MEMBER_EPOCH, ILLEGAL_GENERATION for a classic member); an unknown
     * member is UNKNOWN_MEMBER_ID. Other groups: anyone, as before v9.
     */
    Errors checkFetcher(String groupId, String memberId, int memberEpoch) {
        ConsumerGroup group = shard.consumerGroup(groupId, false);
        if (group == null || memberId == null || memberId.isEmpty() && memberEpoch < 0) {
            return Errors.NONE;
        }
        ConsumerGroupMember member = group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (memberEpoch == member.memberEpoch()) {
            return Errors.NONE;
        }
        return member.usesClassicProtocol() ? Errors.ILLEGAL_GENERATION : Errors.STALE_MEMBER_EPOCH;
    }

    /** The member committing at an epoch older than its current one, or null (it commits at its epoch). */
    private static ConsumerGroupMember olderEpochCommitter(ConsumerGroup group, String memberId, int epoch) {
        ConsumerGroupMember member = memberId == null ? null : group.member(memberId);
        return member != null && epoch >= 0 && epoch < member.memberEpoch() ? member : null;
    }

    /**
     * Whether a commit sent at {@code epoch}, older than the member's, is still the owner's (KIP-1251): the member
     * owns the partition and was given it at that epoch or before. A partition given to it later, or no longer its,
     * may have been committed by another member meanwhile: STALE_MEMBER_EPOCH.
     */
    private boolean ownedAt(ConsumerGroupMember member, String topic, int partition, int epoch) {
        TopicImage image = shard.topic(topic);
        if (image == null || !member.assigned().contains(image.id(), partition)) {
            return false;
        }
        int given = member.assignmentEpochs().epochOf(image.id(), partition);
        return given >= 0 && given <= epoch;
    }

    /** One partition's committed offset for OffsetFetch, or UNSTABLE_OFFSET_COMMIT. */
    record FetchedOffset(int partition, long offset, int leaderEpoch, String metadata, Errors error) {
    }

    /**
     * The group's committed offsets: of the given partitions by topic (an unknown one as offset -1),
     * or of every partition with an offset when {@code wanted} is null.
     */
    Map<String, List<FetchedOffset>> fetch(String groupId, Map<String, List<Integer>> wanted) {
        return fetch(groupId, wanted, false);
    }

    /**
     * As {@link #fetch(String, Map)}; with {@code requireStable} (KIP-447, read_committed consumers) a partition an
     * open transaction committed an offset of is UNSTABLE_OFFSET_COMMIT, which the client retries until it ends.
     */
    Map<String, List<FetchedOffset>> fetch(String groupId, Map<String, List<Integer>> wanted, boolean requireStable) {
        Map<String, List<FetchedOffset>> result = new LinkedHashMap<>();
        if (wanted == null) {
            for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : shard.offsets().offsets(groupId).entrySet()) {
                List<FetchedOffset> partitions = new ArrayList<>();
                topic.getValue().forEach((partition, offset) -> partitions.add(
                        stable(groupId, topic.getKey(), partition, offset, requireStable)));
                result.put(topic.getKey(), partitions);
            }
            return result;
        }
        for (Map.Entry<String, List<Integer>> topic : wanted.entrySet()) {
            List<FetchedOffset> partitions = new ArrayList<>();
            for (int partition : topic.getValue()) {
                partitions.add(stable(groupId, topic.getKey(), partition,
                        shard.offsets().get(groupId, topic.getKey(), partition), requireStable));
            }
            result.put(topic.getKey(), partitions);
        }
        return result;
    }

    /**
     * Writes a record that changes nothing ({@link CoordinatorRecord#readBarrier}), so that an answer the runtime holds
     * for its commit reflects state no other leader had moved past: a leader deposed without knowing it (cut off from
     * the controller, its followers now fetching from the new leader) never commits it, and its client finds the new
     * coordinator instead of reading old offsets from memory. For OffsetFetch with {@code require_stable}: a
     * read_committed consumer restarting from those offsets would process records twice. NOT_COORDINATOR if the
     * write failed.
     */
    Errors proveLeadership(String groupId) {
        return shard.write(List.of(CoordinatorRecord.readBarrier(groupId))) ? Errors.NONE : Errors.NOT_COORDINATOR;
    }

    private FetchedOffset stable(String groupId, String topic, int partition, CommittedOffset offset,
                                 boolean requireStable) {
        if (requireStable && shard.hasTransactionalOffset(groupId, topic, partition)) {
            return new FetchedOffset(partition, -1L, -1, "", Errors.UNSTABLE_OFFSET_COMMIT);
        }
        return offset == null ? new FetchedOffset(partition, -1L, -1, "", Errors.NONE)
                : new FetchedOffset(partition, offset.offset(), offset.leaderEpoch(), offset.metadata(), Errors.NONE);
    }

    /**
     * OffsetDelete: a group's offsets of topics it does not subscribe to (GROUP_SUBSCRIBED_TO_TOPIC for those it
     * does); a classic group with members must use the consumer protocol type (else NON_EMPTY_GROUP).
     */
    OffsetDeleteResponseData delete(OffsetDeleteRequestData request) {
        String groupId = request.groupId();
        ClassicGroup group = shard.group(groupId);
        ConsumerGroup consumerGroup = shard.consumerGroup(groupId, false);
        Predicate<String> subscribed;
        if (consumerGroup != null) {
            subscribed = consumerGroup::isSubscribedTo;
        } else if (group == null || group.isIn(GroupState.DEAD)) {
            return new OffsetDeleteResponseData().setErrorCode(Errors.GROUP_ID_NOT_FOUND.code());
        } else if (group.isIn(GroupState.EMPTY)) {
            subscribed = topic -> false;
        } else if (CONSUMER_PROTOCOL_TYPE.equals(group.protocolType())) {
            subscribed = Subscriptions.topicsOf(group)::contains;
        } else {
            return new OffsetDeleteResponseData().setErrorCode(Errors.NON_EMPTY_GROUP.code());
        }
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        List<OffsetDeleteResponseTopic> topics = new ArrayList<>();
        for (OffsetDeleteRequestTopic topic : request.topics()) {
            List<OffsetDeleteResponsePartition> partitions = new ArrayList<>();
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                Errors error = Errors.NONE;
                if (subscribed.test(topic.name())) {
                    error = Errors.GROUP_SUBSCRIBED_TO_TOPIC;
                } else if (shard.offsets().get(groupId, topic.name(), partition.partitionIndex()) != null) {
                    tombstones.add(CoordinatorRecord.offsetTombstone(groupId, topic.name(),
                            partition.partitionIndex()));
                }
                partitions.add(new OffsetDeleteResponsePartition().setPartitionIndex(partition.partitionIndex())
                        .setErrorCode(error.code()));
            }
            topics.add(new OffsetDeleteResponseTopic().setName(topic.name()).setPartitions(partitions));
        }
        if (!tombstones.isEmpty() && !shard.write(tombstones)) {
            return new OffsetDeleteResponseData().setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return new OffsetDeleteResponseData().setErrorCode(Errors.NONE.code()).setTopics(topics);
    }

    /**
     * Removes every group's offsets of deleted topics (tombstones), so that a topic created again
     * under the same name starts without the old positions, as Kafka does. Returns how many.
     */
    int deleteOffsetsOfTopics(Set<String> deletedTopics) {
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        for (String groupId : shard.offsets().groupIds()) {
            for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : shard.offsets().offsets(groupId).entrySet()) {
                if (deletedTopics.contains(topic.getKey())) {
                    for (Integer partition : topic.getValue().keySet()) {
                        tombstones.add(CoordinatorRecord.offsetTombstone(groupId, topic.getKey(), partition));
                    }
                }
            }
        }
        if (tombstones.isEmpty() || !shard.write(tombstones)) {
            return 0;
        }
        LOG.info("Removed {} committed offsets of deleted topics {} from __consumer_offsets-{}", tombstones.size(),
                deletedTopics, shard.partition());
        return tombstones.size();
    }

    /**
     * Removes offsets past {@code offsets.retention.minutes} (KIP-211): of a classic group without members, counted
     * from when it became empty, or from the commit for a group that never had members; of a consumer group, those
     * of topics no member subscribes to, counted from the commit (KIP-848); an offset committed with an explicit
     * retention (v2-4) expires at its own time. An empty group left without offsets is deleted too. Returns the
     * number of offsets removed.
     */
    int expireOffsets() {
        long nowMs = shard.nowMs();
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        int groupsDeleted = 0;
        for (ClassicGroup group : new ArrayList<>(shard.groups())) {
            if (!group.isIn(GroupState.EMPTY)) {
                continue;
            }
            boolean hadMembers = group.protocolType() != null;
            long emptySinceMs = group.currentStateTimestampMs();
            int remaining = expireOffsets(group.groupId(), topic -> true,
                    offset -> hadMembers ? emptySinceMs : offset.commitTimestampMs(), nowMs, tombstones);
            if (remaining == 0 && group.pendingMembers().isEmpty()) {
                tombstones.add(CoordinatorRecord.groupTombstone(group.groupId()));
                groupsDeleted++;
            }
        }
        for (ConsumerGroup group : new ArrayList<>(shard.consumerGroups())) {
            int remaining = expireOffsets(group.groupId(), topic -> !group.isSubscribedTo(topic),
                    CommittedOffset::commitTimestampMs, nowMs, tombstones);
            if (remaining == 0 && group.isEmpty()) {
                tombstones.addAll(ConsumerGroupRecords.deletion(group));
                groupsDeleted++;
            }
        }
        if (tombstones.isEmpty() || !shard.write(tombstones)) {
            return 0;
        }
        int expired = (int) tombstones.stream().filter(CoordinatorRecord::isOffsetCommit).count();
        LOG.info("Removed {} expired offsets and {} empty groups from __consumer_offsets-{}", expired, groupsDeleted,
                shard.partition());
        return expired;
    }

    /**
     * Adds to {@code tombstones} the group's offsets past their retention ({@code offsets.retention.minutes} after
     * {@code base}, or their own expiry) among the topics {@code expirable}; returns how many offsets remain.
     */
    private int expireOffsets(String groupId, Predicate<String> expirable, ToLongFunction<CommittedOffset> base,
                              long nowMs, List<CoordinatorRecord> tombstones) {
        long retentionMs = shard.settings().offsetsRetentionMs();
        int remaining = 0;
        for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : shard.offsets().offsets(groupId).entrySet()) {
            boolean mayExpire = expirable.test(topic.getKey());
            for (Map.Entry<Integer, CommittedOffset> partition : topic.getValue().entrySet()) {
                CommittedOffset offset = partition.getValue();
                boolean isExpired = mayExpire && (offset.expireTimestampMs() != CommittedOffset.NO_EXPIRY
                        ? nowMs >= offset.expireTimestampMs() : nowMs - base.applyAsLong(offset) >= retentionMs);
                if (isExpired) {
                    tombstones.add(CoordinatorRecord.offsetTombstone(groupId, topic.getKey(), partition.getKey()));
                } else {
                    remaining++;
                }
            }
        }
        return remaining;
    }
}
