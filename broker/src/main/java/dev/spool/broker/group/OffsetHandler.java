package dev.spool.broker.group;

import dev.spool.broker.DeliberateFault;
import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiFamily;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.produce.TransactionMembership;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import dev.spool.protocol.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import dev.spool.protocol.message.OffsetDeleteRequestData;
import dev.spool.protocol.message.OffsetDeleteResponseData;
import dev.spool.protocol.message.OffsetFetchRequestData;
import dev.spool.protocol.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import dev.spool.protocol.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import dev.spool.protocol.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import dev.spool.protocol.message.OffsetFetchResponseData;
import dev.spool.protocol.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import dev.spool.protocol.message.OffsetFetchResponseData.OffsetFetchResponsePartition;
import dev.spool.protocol.message.OffsetFetchResponseData.OffsetFetchResponsePartitions;
import dev.spool.protocol.message.OffsetFetchResponseData.OffsetFetchResponseTopic;
import dev.spool.protocol.message.OffsetFetchResponseData.OffsetFetchResponseTopics;
import dev.spool.protocol.message.TxnOffsetCommitRequestData;
import dev.spool.protocol.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import dev.spool.protocol.message.TxnOffsetCommitResponseData;
import dev.spool.protocol.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition;
import dev.spool.protocol.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * OffsetCommit, OffsetFetch (one group before v8, a batch of groups from v8, KIP-709) and
 * OffsetDelete, each handed to the shard of its group. An OffsetCommit's partitions that do not exist are
 * answered here, UNKNOWN_TOPIC_OR_PARTITION, as Kafka does, and only the others reach the shard
 * ({@link CommitPartitionCheck}). TxnOffsetCommit (v0-4, transactions v1) commits offsets in a producer's
 * transaction, counted once it commits; meanwhile an OffsetFetch with {@code require_stable} (KIP-447) gets
 * UNSTABLE_OFFSET_COMMIT for those partitions, which the client retries; and such an OffsetFetch is answered only
 * once a record written for it is committed, proving this broker still leads the group's partition
 * ({@link OffsetCommits#proveLeadership}). Thread-safe; never blocks.
 */
public final class OffsetHandler implements ApiFamily {

    private static final short FIRST_BATCHED_FETCH_VERSION = 8;
    /** OffsetFetch v2 added the top-level error and "all partitions" (null topics). */
    private static final short FIRST_TOP_LEVEL_ERROR_VERSION = 2;
    /** TxnOffsetCommit v5 is transactions v2: the group's partition joins the transaction with it. */
    private static final short FIRST_IMPLICIT_ADD_VERSION = 5;
    /** v6 names topics by id (KIP-1319), not served yet. */
    private static final int TXN_OFFSET_COMMIT_MAX_VERSION = 5;

    private final GroupCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;
    private final TransactionMembership transactions;

    /** A broker without transactions v2 (tests): TxnOffsetCommit v5's partition is taken as in the transaction. */
    public OffsetHandler(GroupCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this(coordinator, metadata, TransactionMembership.ANY);
    }

    public OffsetHandler(GroupCoordinator coordinator, Supplier<MetadataImage> metadata,
                         TransactionMembership transactions) {
        this.coordinator = coordinator;
        this.metadata = metadata;
        this.transactions = transactions;
    }

    /** OffsetCommit v10 and OffsetFetch v10 name topics by id; 9 is what the clients send (docs/protocol.md). */
    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.OFFSET_COMMIT, 2, 9, OffsetCommitRequestData.class,
                        (context, request) -> commit(request, context))
                .register(ApiKey.OFFSET_FETCH, 1, 9, OffsetFetchRequestData.class,
                        (context, request) -> context.apiVersion() >= FIRST_BATCHED_FETCH_VERSION
                                ? fetchGroups(request, context.access())
                                : fetchOne(request, context.apiVersion(), context.access()))
                .register(ApiKey.OFFSET_DELETE, 0, ApiKey.OFFSET_DELETE.highestVersion, OffsetDeleteRequestData.class,
                        (context, request) -> delete(request, context.access()))
                .register(ApiKey.TXN_OFFSET_COMMIT, 0, TXN_OFFSET_COMMIT_MAX_VERSION, TxnOffsetCommitRequestData.class,
                        (context, request) -> transactionalCommit(request, context));
    }

    private CompletableFuture<OffsetCommitResponseData> commit(OffsetCommitRequestData request,
                                                               RequestContext context) {
        short version = context.apiVersion();
        Access access = context.access();
        if (!access.allows(AclOperation.READ, ResourceType.GROUP, request.groupId())) {
            return CompletableFuture.completedFuture(failedCommit(request, Errors.GROUP_AUTHORIZATION_FAILED));
        }
        CommitPartitionCheck check = new CommitPartitionCheck(metadata.get(),
                topic -> access.allowsTopic(AclOperation.READ, topic));
        OffsetCommitRequestData existing = check.existing(request);
        if (existing.topics().isEmpty()) {
            // As Kafka: with nothing left for it, the coordinator is not asked.
            return CompletableFuture.completedFuture(check.answer(request, new OffsetCommitResponseData()));
        }
        return coordinator.call(request.groupId(),
                shard -> CompletableFuture.completedFuture(shard.offsetCommits().commit(existing, version)),
                error -> failedCommit(existing, error))
                .thenApply(answer -> check.answer(request, answer));
    }

    /**
     * TxnOffsetCommit, authorized as Kafka does: WRITE on the transactional id, READ on the group (else every
     * partition carries the error), READ on each topic (a topic refused is TOPIC_AUTHORIZATION_FAILED and the
     * others are committed).
     */
    private CompletableFuture<TxnOffsetCommitResponseData> transactionalCommit(TxnOffsetCommitRequestData request,
                                                                             RequestContext context) {
        Access access = context.access();
        if (!access.allows(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId())) {
            return CompletableFuture.completedFuture(failedTransactionalCommit(request,
                    Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
        }
        if (!access.allows(AclOperation.READ, ResourceType.GROUP, request.groupId())) {
            return CompletableFuture.completedFuture(failedTransactionalCommit(request,
                    Errors.GROUP_AUTHORIZATION_FAILED));
        }
        List<TxnOffsetCommitRequestTopic> refused = new ArrayList<>();
        List<TxnOffsetCommitRequestTopic> allowed = new ArrayList<>();
        for (TxnOffsetCommitRequestTopic topic : request.topics()) {
            (access.allowsTopic(AclOperation.READ, topic.name()) ? allowed : refused).add(topic);
        }
        if (!refused.isEmpty()) {
            request.setTopics(allowed);
        }
        CompletableFuture<TxnOffsetCommitResponseData> answer = allowed.isEmpty() && !refused.isEmpty()
                ? CompletableFuture.completedFuture(new TxnOffsetCommitResponseData())
                : context.apiVersion() >= FIRST_IMPLICIT_ADD_VERSION ? joinThenCommit(request)
                : commitTransactional(request);
        if (refused.isEmpty()) {
            return answer;
        }
        List<TxnOffsetCommitResponseTopic> refusals = failedTransactionalCommit(
                new TxnOffsetCommitRequestData().setTopics(refused), Errors.TOPIC_AUTHORIZATION_FAILED).topics();
        return answer.thenApply(response -> {
            List<TxnOffsetCommitResponseTopic> topics = new ArrayList<>(response.topics());
            topics.addAll(refusals);
            return response.setTopics(topics);
        });
    }

    /** TxnOffsetCommit v5: the group's {@code __consumer_offsets} partition joins the transaction first (KIP-890). */
    private CompletableFuture<TxnOffsetCommitResponseData> joinThenCommit(TxnOffsetCommitRequestData request) {
        TopicPartition offsets = new TopicPartition(GroupCoordinator.TOPIC, coordinator.partitionFor(request.groupId()));
        return transactions.add(request.transactionalId(), request.producerId(), request.producerEpoch(),
                        Set.of(offsets), false)
                .thenCompose(error -> error == Errors.NONE ? commitTransactional(request)
                        : CompletableFuture.completedFuture(failedTransactionalCommit(request, error)));
    }

    private CompletableFuture<TxnOffsetCommitResponseData> commitTransactional(TxnOffsetCommitRequestData request) {
        return coordinator.call(request.groupId(),
                shard -> CompletableFuture.completedFuture(shard.offsetCommits().commitTransactional(request)),
                error -> failedTransactionalCommit(request, error));
    }

    private static TxnOffsetCommitResponseData failedTransactionalCommit(TxnOffsetCommitRequestData request,
                                                                        Errors error) {
        List<TxnOffsetCommitResponseTopic> topics = new ArrayList<>();
        for (TxnOffsetCommitRequestTopic topic : request.topics()) {
            topics.add(new TxnOffsetCommitResponseTopic().setName(topic.name()).setPartitions(
                    topic.partitions().stream().map(partition -> new TxnOffsetCommitResponsePartition()
                            .setPartitionIndex(partition.partitionIndex()).setErrorCode(error.code()))
                            .toList()));
        }
        return new TxnOffsetCommitResponseData().setTopics(topics);
    }

    private static OffsetCommitResponseData failedCommit(OffsetCommitRequestData request, Errors error) {
        List<OffsetCommitResponseTopic> topics = new ArrayList<>();
        for (OffsetCommitRequestTopic topic : request.topics()) {
            List<OffsetCommitResponsePartition> partitions = new ArrayList<>();
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                partitions.add(new OffsetCommitResponsePartition().setPartitionIndex(partition.partitionIndex())
                        .setErrorCode(error.code()));
            }
            topics.add(new OffsetCommitResponseTopic().setName(topic.name()).setTopicId(topic.topicId())
                    .setPartitions(partitions));
        }
        return new OffsetCommitResponseData().setTopics(topics);
    }

    /** A group's offsets, or the error that stopped the coordinator from reading them. */
    private record GroupOffsets(Map<String, List<OffsetCommits.FetchedOffset>> topics, Errors error) {
    }

    /**
     * A group's offsets as its fetcher may see them: none without DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED);
     * a topic asked for without DESCRIBE on it is TOPIC_AUTHORIZATION_FAILED on each partition, and left out when
     * every topic is asked for, as Kafka answers.
     */
    private CompletableFuture<GroupOffsets> fetch(String groupId, Map<String, List<Integer>> wanted,
                                                  boolean requireStable, Access access) {
        return fetch(groupId, null, -1, wanted, requireStable, access);
    }

    /** The same for a fetch that names its member and epoch (v9+; none: null, -1). */
    private CompletableFuture<GroupOffsets> fetch(String groupId, String memberId, int memberEpoch,
                                                  Map<String, List<Integer>> wanted, boolean requireStable,
                                                  Access access) {
        if (!access.allows(AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
            return CompletableFuture.completedFuture(new GroupOffsets(Map.of(), Errors.GROUP_AUTHORIZATION_FAILED));
        }
        return fetch(groupId, memberId, memberEpoch, wanted, requireStable).thenApply(offsets -> {
            Map<String, List<OffsetCommits.FetchedOffset>> seen = new LinkedHashMap<>();
            offsets.topics().forEach((topic, partitions) -> {
                if (access.allowsTopic(AclOperation.DESCRIBE, topic)) {
                    seen.put(topic, partitions);
                } else if (wanted != null) {
                    seen.put(topic, partitions.stream().map(offset -> new OffsetCommits.FetchedOffset(
                            offset.partition(), -1, -1, "", Errors.TOPIC_AUTHORIZATION_FAILED)).toList());
                }
            });
            return new GroupOffsets(seen, offsets.error());
        });
    }

    private CompletableFuture<GroupOffsets> fetch(String groupId, String memberId, int memberEpoch,
                                                  Map<String, List<Integer>> wanted, boolean requireStable) {
        return coordinator.call(groupId, shard -> {
            Errors fetcher = shard.offsetCommits().checkFetcher(groupId, memberId, memberEpoch);
            if (fetcher != Errors.NONE) {
                return CompletableFuture.completedFuture(new GroupOffsets(Map.of(), fetcher));
            }
            Map<String, List<OffsetCommits.FetchedOffset>> offsets = shard.offsetCommits()
                    .fetch(groupId, wanted, requireStable);
            // require_stable: a read_committed consumer, which would process records twice from stale offsets. Not
            // for an answer it retries anyway (UNSTABLE_OFFSET_COMMIT): each retry would write a record.
            Errors proof = requireStable && !retried(offsets)
                    && !DeliberateFault.is(DeliberateFault.COORDINATOR_READS_UNPROVEN)
                    ? shard.offsetCommits().proveLeadership(groupId) : Errors.NONE;
            return CompletableFuture.completedFuture(proof != Errors.NONE ? new GroupOffsets(Map.of(), proof)
                    : new GroupOffsets(offsets, Errors.NONE));
        }, error -> new GroupOffsets(Map.of(), error));
    }

    private static boolean retried(Map<String, List<OffsetCommits.FetchedOffset>> offsets) {
        return offsets.values().stream().flatMap(List::stream)
                .anyMatch(offset -> offset.error() == Errors.UNSTABLE_OFFSET_COMMIT);
    }

    private CompletableFuture<OffsetFetchResponseData> fetchOne(OffsetFetchRequestData request, short version,
                                                                Access access) {
        Map<String, List<Integer>> wanted = null;
        if (request.topics() != null) {
            wanted = new LinkedHashMap<>();
            for (OffsetFetchRequestTopic topic : request.topics()) {
                wanted.computeIfAbsent(topic.name(), name -> new ArrayList<>()).addAll(topic.partitionIndexes());
            }
        }
        Map<String, List<Integer>> requested = wanted;
        return fetch(request.groupId(), wanted, request.requireStable(), access).thenApply(offsets -> {
            List<OffsetFetchResponseTopic> topics = new ArrayList<>();
            if (offsets.error() != Errors.NONE && version < FIRST_TOP_LEVEL_ERROR_VERSION && requested != null) {
                // v0-1 have no group error: every partition carries it.
                requested.forEach((name, partitions) -> topics.add(new OffsetFetchResponseTopic().setName(name)
                        .setPartitions(partitions.stream().map(index -> new OffsetFetchResponsePartition()
                                .setPartitionIndex(index).setCommittedOffset(-1).setCommittedLeaderEpoch(-1)
                                .setMetadata("").setErrorCode(offsets.error().code())).toList())));
            }
            offsets.topics().forEach((name, partitions) -> topics.add(new OffsetFetchResponseTopic().setName(name)
                    .setPartitions(partitions.stream().map(offset -> new OffsetFetchResponsePartition()
                            .setPartitionIndex(offset.partition())
                            .setCommittedOffset(offset.offset())
                            .setCommittedLeaderEpoch(offset.leaderEpoch())
                            .setMetadata(offset.metadata())
                            .setErrorCode(offset.error().code())).toList())));
            return new OffsetFetchResponseData().setErrorCode(offsets.error().code()).setTopics(topics);
        });
    }

    private CompletableFuture<OffsetFetchResponseData> fetchGroups(OffsetFetchRequestData request, Access access) {
        List<CompletableFuture<OffsetFetchResponseGroup>> groups = new ArrayList<>();
        for (OffsetFetchRequestGroup group : request.groups()) {
            Map<String, List<Integer>> wanted = null;
            if (group.topics() != null) {
                wanted = new LinkedHashMap<>();
                for (OffsetFetchRequestTopics topic : group.topics()) {
                    wanted.computeIfAbsent(topic.name(), name -> new ArrayList<>()).addAll(topic.partitionIndexes());
                }
            }
            groups.add(fetch(group.groupId(), group.memberId(), group.memberEpoch(), wanted, request.requireStable(),
                    access).thenApply(offsets -> {
                List<OffsetFetchResponseTopics> topics = new ArrayList<>();
                offsets.topics().forEach((name, partitions) -> topics.add(new OffsetFetchResponseTopics()
                        .setName(name)
                        .setPartitions(partitions.stream().map(offset -> new OffsetFetchResponsePartitions()
                                .setPartitionIndex(offset.partition())
                                .setCommittedOffset(offset.offset())
                                .setCommittedLeaderEpoch(offset.leaderEpoch())
                                .setMetadata(offset.metadata())
                                .setErrorCode(offset.error().code())).toList())));
                return new OffsetFetchResponseGroup().setGroupId(group.groupId()).setTopics(topics)
                        .setErrorCode(offsets.error().code());
            }));
        }
        return CompletableFuture.allOf(groups.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<OffsetFetchResponseGroup> answers = new ArrayList<>(groups.size());
            groups.forEach(future -> answers.add(future.join()));
            return new OffsetFetchResponseData().setGroups(answers);
        });
    }

    /**
     * OffsetDelete: DELETE on the group (else GROUP_AUTHORIZATION_FAILED), READ on each topic (a topic refused is
     * TOPIC_AUTHORIZATION_FAILED on its partitions, the others are deleted), as Kafka authorizes it.
     */
    private CompletableFuture<OffsetDeleteResponseData> delete(OffsetDeleteRequestData request, Access access) {
        if (!access.allows(AclOperation.DELETE, ResourceType.GROUP, request.groupId())) {
            return CompletableFuture.completedFuture(new OffsetDeleteResponseData()
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
        }
        List<OffsetDeleteResponseData.OffsetDeleteResponseTopic> refused = new ArrayList<>();
        List<OffsetDeleteRequestData.OffsetDeleteRequestTopic> allowed = new ArrayList<>();
        for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : request.topics()) {
            if (access.allowsTopic(AclOperation.READ, topic.name())) {
                allowed.add(topic);
                continue;
            }
            refused.add(new OffsetDeleteResponseData.OffsetDeleteResponseTopic().setName(topic.name())
                    .setPartitions(topic.partitions().stream().map(partition -> new OffsetDeleteResponseData
                            .OffsetDeleteResponsePartition().setPartitionIndex(partition.partitionIndex())
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())).toList()));
        }
        request.setTopics(allowed);
        return coordinator.call(request.groupId(),
                shard -> CompletableFuture.completedFuture(shard.offsetCommits().delete(request)),
                error -> new OffsetDeleteResponseData().setErrorCode(error.code()))
                .thenApply(response -> {
                    if (!refused.isEmpty()) {
                        List<OffsetDeleteResponseData.OffsetDeleteResponseTopic> topics =
                                new ArrayList<>(response.topics());
                        topics.addAll(refused);
                        response.setTopics(topics);
                    }
                    return response;
                });
    }
}
