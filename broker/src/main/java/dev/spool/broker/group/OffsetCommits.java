package dev.spool.broker.group;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    private final GroupCoordinatorShard shard;

    OffsetCommits(GroupCoordinatorShard shard) {
        this.shard = shard;
    }

    OffsetCommitResponseData commit(OffsetCommitRequestData request, short version) {
        ClassicGroup group = shard.group(request.groupId());
        Errors groupError = validateCommit(group, request);
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
                String metadata = partition.committedMetadata() == null ? "" : partition.committedMetadata();
                if (groupError != null) {
                    answer.setErrorCode(groupError.code());
                } else if (metadata.getBytes(StandardCharsets.UTF_8).length > shard.settings().offsetMetadataMaxBytes()) {
                    answer.setErrorCode(Errors.OFFSET_METADATA_TOO_LARGE.code());
                } else {
                    // Stored as sent, even kafkajs's -2 for "earliest" after admin.resetOffsets.
                    records.add(CoordinatorRecord.offsetCommit(request.groupId(), topic.name(),
                            partition.partitionIndex(), new CommittedOffset(partition.committedOffset(),
                                    partition.committedLeaderEpoch(), metadata, nowMs, expireMs)));
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

    /** One partition's committed offset for OffsetFetch. */
    record FetchedOffset(int partition, long offset, int leaderEpoch, String metadata) {
    }

    /**
     * The group's committed offsets: of the given partitions by topic (an unknown one as offset -1),
     * or of every partition with an offset when {@code wanted} is null.
     */
    Map<String, List<FetchedOffset>> fetch(String groupId, Map<String, List<Integer>> wanted) {
        Map<String, List<FetchedOffset>> result = new LinkedHashMap<>();
        if (wanted == null) {
            for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : shard.offsets().offsets(groupId).entrySet()) {
                List<FetchedOffset> partitions = new ArrayList<>();
                topic.getValue().forEach((partition, offset) -> partitions.add(fetched(partition, offset)));
                result.put(topic.getKey(), partitions);
            }
            return result;
        }
        for (Map.Entry<String, List<Integer>> topic : wanted.entrySet()) {
            List<FetchedOffset> partitions = new ArrayList<>();
            for (int partition : topic.getValue()) {
                partitions.add(fetched(partition, shard.offsets().get(groupId, topic.getKey(), partition)));
            }
            result.put(topic.getKey(), partitions);
        }
        return result;
    }

    private static FetchedOffset fetched(int partition, CommittedOffset offset) {
        return offset == null ? new FetchedOffset(partition, -1L, -1, "")
                : new FetchedOffset(partition, offset.offset(), offset.leaderEpoch(), offset.metadata());
    }

    OffsetDeleteResponseData delete(OffsetDeleteRequestData request) {
        ClassicGroup group = shard.group(request.groupId());
        if (group == null || group.isIn(GroupState.DEAD)) {
            return new OffsetDeleteResponseData().setErrorCode(Errors.GROUP_ID_NOT_FOUND.code());
        }
        boolean hasMembers = !group.isIn(GroupState.EMPTY);
        if (hasMembers && !CONSUMER_PROTOCOL_TYPE.equals(group.protocolType())) {
            return new OffsetDeleteResponseData().setErrorCode(Errors.NON_EMPTY_GROUP.code());
        }
        Set<String> subscribed = hasMembers ? Subscriptions.topicsOf(group) : Set.of();
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        List<OffsetDeleteResponseTopic> topics = new ArrayList<>();
        for (OffsetDeleteRequestTopic topic : request.topics()) {
            List<OffsetDeleteResponsePartition> partitions = new ArrayList<>();
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                Errors error = Errors.NONE;
                if (subscribed.contains(topic.name())) {
                    error = Errors.GROUP_SUBSCRIBED_TO_TOPIC;
                } else if (shard.offsets().get(group.groupId(), topic.name(), partition.partitionIndex()) != null) {
                    tombstones.add(CoordinatorRecord.offsetTombstone(group.groupId(), topic.name(),
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
     * Removes offsets past {@code offsets.retention.minutes} (KIP-211): of a group without members,
     * counted from when it became empty, or from the commit for a group that never had members; an
     * offset committed with an explicit retention (v2-4) expires at its own time. An empty group left
     * without offsets is deleted too. Returns the number of offsets removed.
     */
    int expireOffsets() {
        long nowMs = shard.nowMs();
        long retentionMs = shard.settings().offsetsRetentionMs();
        List<CoordinatorRecord> tombstones = new ArrayList<>();
        int expired = 0;
        for (ClassicGroup group : new ArrayList<>(shard.groups())) {
            if (!group.isIn(GroupState.EMPTY)) {
                continue;
            }
            int before = tombstones.size();
            Map<String, TreeMap<Integer, CommittedOffset>> offsets = shard.offsets().offsets(group.groupId());
            int remaining = 0;
            for (Map.Entry<String, TreeMap<Integer, CommittedOffset>> topic : offsets.entrySet()) {
                for (Map.Entry<Integer, CommittedOffset> partition : topic.getValue().entrySet()) {
                    CommittedOffset offset = partition.getValue();
                    boolean isExpired = offset.expireTimestampMs() != CommittedOffset.NO_EXPIRY
                            ? nowMs >= offset.expireTimestampMs()
                            : nowMs - (group.protocolType() != null ? group.currentStateTimestampMs()
                            : offset.commitTimestampMs()) >= retentionMs;
                    if (isExpired) {
                        tombstones.add(CoordinatorRecord.offsetTombstone(group.groupId(), topic.getKey(),
                                partition.getKey()));
                    } else {
                        remaining++;
                    }
                }
            }
            expired += tombstones.size() - before;
            if (remaining == 0 && group.pendingMembers().isEmpty()) {
                tombstones.add(CoordinatorRecord.groupTombstone(group.groupId()));
            }
        }
        if (tombstones.isEmpty()) {
            return 0;
        }
        if (!shard.write(tombstones)) {
            return 0;
        }
        LOG.info("Removed {} expired offsets and {} empty groups from __consumer_offsets-{}", expired,
                tombstones.size() - expired, shard.partition());
        return expired;
    }
}
