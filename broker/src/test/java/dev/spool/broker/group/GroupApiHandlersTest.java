package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.protocol.types.Uuid;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.TopicController;
import dev.spool.broker.metadata.TopicCreator;
import dev.spool.broker.metadata.TopicDefaults;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.Errors;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.FindCoordinatorRequestData;
import dev.spool.protocol.message.FindCoordinatorResponseData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.ListGroupsRequestData;
import dev.spool.protocol.message.ListGroupsResponseData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.message.OffsetCommitResponseData;
import dev.spool.protocol.message.OffsetFetchRequestData;
import dev.spool.protocol.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import dev.spool.protocol.message.OffsetFetchRequestData.OffsetFetchRequestTopic;
import dev.spool.protocol.message.OffsetFetchResponseData;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupResponseData;
import dev.spool.protocol.types.Message;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group API handlers on a real coordinator, metadata manager and partition logs: FindCoordinator
 * creates {@code __consumer_offsets}; each API answers in the shape of its version.
 */
class GroupApiHandlersTest {

    private static final int OFFSETS_PARTITIONS = 3;

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private MetadataManager metadata;
    private PartitionManager partitions;
    private GroupCoordinator coordinator;
    private TopicController topics;
    private final ApiRegistry registry = new ApiRegistry();

    @BeforeEach
    void start() throws Exception {
        PartitionLog metadataLog = PartitionLog.open(dir.resolve("metadata").resolve("__cluster_metadata-0"), LogConfig.defaults(),
                System::currentTimeMillis, scheduler);
        metadata = new MetadataManager(new MetadataLog(metadataLog), System::currentTimeMillis, Long.MAX_VALUE);
        metadata.load();
        metadata.submit(image -> BrokerRegistrations.register(image, 1, new Uuid(1L, 1L),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker.test", 9092, (short) 0))))
                .get(10, TimeUnit.SECONDS);
        partitions = new PartitionManager(dir.resolve("data"), new BrokerConfigLayers(new BrokerConfig(Map.of()))::topicLogDefaults,
                System::currentTimeMillis, scheduler);
        metadata.addListener(partitions);
        GroupSettings defaults = GroupSettings.defaults();
        GroupSettings settings = new GroupSettings(OFFSETS_PARTITIONS, (short) 1, defaults.segmentBytes(), 0,
                defaults.minSessionTimeoutMs(), defaults.maxSessionTimeoutMs(), defaults.maxSize(),
                defaults.offsetsRetentionMs(), defaults.offsetsRetentionCheckIntervalMs(),
                defaults.offsetMetadataMaxBytes(), defaults.consumer());
        topics = new TopicController(new TopicDefaults(1, (short) 1, Map.of()), overrides -> null);
        coordinator = new GroupCoordinator(settings, 2, metadata, TopicCreator.local(metadata, topics), partitions, System::currentTimeMillis);
        metadata.addListener(coordinator);
        ClusterView view = new ClusterView("cluster", 1,
                List.of(new ClusterView.BrokerNode(1, new Endpoint("PLAINTEXT", "broker.test", 9092), null)));
        registry.register(ApiKey.FIND_COORDINATOR, 0, ApiKey.FIND_COORDINATOR.highestVersion,
                new FindCoordinatorHandler(coordinator, null, metadata::image, () -> view));
        new GroupHandler(coordinator).registerIn(registry);
        new OffsetHandler(coordinator, metadata::image).registerIn(registry);
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        partitions.close();
        metadata.close();
        scheduler.shutdownNow();
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static RequestContext context(ApiKey api, int version) {
        return new RequestContext(api, (short) version, 1, "test-client", new InetSocketAddress("127.0.0.1", 5555));
    }

    /** Sends a request through the registry the handlers registered in, as the network layer does. */
    private Message call(ApiKey api, int version, Message request) throws Exception {
        ApiRegistry.RegisteredApi registered = registry.get(api);
        assertThat(registered.supports((short) version)).as("%s v%d is served", api, version).isTrue();
        return registered.handler().handle(context(api, version), request).get(10, TimeUnit.SECONDS);
    }

    @Test
    void beforeTheOffsetsTopicExistsGroupsHaveNoCoordinator() throws Exception {
        OffsetFetchResponseData response = (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 7,
                new OffsetFetchRequestData().setGroupId("g").setTopics(null));

        assertThat(response.errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(metadata.image().topic(GroupCoordinator.TOPIC)).isNull();
    }

    @Test
    void findCoordinatorCreatesTheCompactedOffsetsTopicAndNamesThisBroker() throws Exception {
        FindCoordinatorResponseData single = (FindCoordinatorResponseData) call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g").setKeyType((byte) 0));
        FindCoordinatorResponseData batched = (FindCoordinatorResponseData) call(ApiKey.FIND_COORDINATOR, 6, new FindCoordinatorRequestData().setKeyType((byte) 0)
                        .setCoordinatorKeys(List.of("a", "b")));
        FindCoordinatorResponseData share = (FindCoordinatorResponseData) call(ApiKey.FIND_COORDINATOR, 6, new FindCoordinatorRequestData().setKeyType((byte) 2)
                        .setCoordinatorKeys(List.of("g:t:0")));

        assertThat(single.errorCode()).isZero();
        assertThat(single.host()).isEqualTo("broker.test");
        assertThat(single.port()).isEqualTo(9092);
        assertThat(batched.coordinators()).extracting(FindCoordinatorResponseData.Coordinator::key)
                .containsExactly("a", "b");
        assertThat(batched.coordinators()).allSatisfy(found -> assertThat(found.nodeId()).isEqualTo(1));
        // No share coordinator: a fatal answer that says why, never one the client retries.
        assertThat(share.coordinators().get(0).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(share.coordinators().get(0).errorMessage()).isEqualTo("Unknown coordinator key type 2.");
        assertThat(metadata.image().topic(GroupCoordinator.TOPIC).partitions()).hasSize(OFFSETS_PARTITIONS);
        assertThat(metadata.image().configs(ConfigResource.topic(GroupCoordinator.TOPIC)))
                .containsEntry("cleanup.policy", "compact");
    }

    @Test
    void aGroupWhosePartitionLeaderIsNotALiveBrokerHasNoCoordinatorYet() throws Exception {
        call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g").setKeyType((byte) 0));
        FindCoordinatorHandler noBrokers = new FindCoordinatorHandler(coordinator, null, metadata::image,
                () -> new ClusterView("cluster", 1, List.of()));

        FindCoordinatorResponseData response = (FindCoordinatorResponseData) noBrokers.handle(
                context(ApiKey.FIND_COORDINATOR, 3), new FindCoordinatorRequestData().setKey("g").setKeyType((byte) 0))
                .get(10, TimeUnit.SECONDS);

        assertThat(response.errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(response.nodeId()).isEqualTo(-1);
    }

    private void createTopic(String name, int partitionCount) throws Exception {
        metadata.submit(image -> topics.createTopics(image, List.of(new CreatableTopic().setName(name)
                .setNumPartitions(partitionCount).setReplicationFactor((short) 1)), false)).get(10, TimeUnit.SECONDS);
    }

    /** Commits offset 5 to partition 0 of "t" (which exists), 3 of "t" and 0 of "missing" (which do not). */
    private OffsetCommitResponseData commitToExistingAndMissing(int version, String group, int generation,
                                                                String memberId) throws Exception {
        return (OffsetCommitResponseData) call(ApiKey.OFFSET_COMMIT, version, new OffsetCommitRequestData()
                .setGroupId(group).setGenerationIdOrMemberEpoch(generation).setMemberId(memberId).setTopics(List.of(
                        new OffsetCommitRequestTopic().setName("t").setPartitions(List.of(
                                new OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(5),
                                new OffsetCommitRequestPartition().setPartitionIndex(3).setCommittedOffset(5))),
                        new OffsetCommitRequestTopic().setName("missing").setPartitions(List.of(
                                new OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(5))))));
    }

    private static List<String> errorsByPartition(OffsetCommitResponseData response) {
        return response.topics().stream().flatMap(topic -> topic.partitions().stream()
                .map(partition -> topic.name() + "-" + partition.partitionIndex() + " "
                        + Errors.nameOf(partition.errorCode()))).toList();
    }

    /** A member of group {@code group} with a completed rebalance (JoinGroup v3, SyncGroup v3): its id and generation. */
    private JoinGroupResponseData joinedMember(String group) throws Exception {
        JoinGroupResponseData joined = (JoinGroupResponseData) call(ApiKey.JOIN_GROUP, 3,
                new JoinGroupRequestData().setGroupId(group).setSessionTimeoutMs(10_000).setRebalanceTimeoutMs(10_000)
                        .setMemberId("").setProtocolType("consumer").setProtocols(List.of(
                                new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
                                        .setMetadata(new byte[0]))));
        assertThat(joined.errorCode()).isZero();
        SyncGroupResponseData synced = (SyncGroupResponseData) call(ApiKey.SYNC_GROUP, 3,
                new SyncGroupRequestData().setGroupId(group).setGenerationId(joined.generationId())
                        .setMemberId(joined.memberId()).setAssignments(List.of()));
        assertThat(synced.errorCode()).isZero();
        return joined;
    }

    @Test
    void groupsUnloadWhenTheirPartitionsLeadershipMovesAwayAndAreReplayedWhenItComesBack() throws Exception {
        call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g"));
        createTopic("t", 1);
        assertThat(errorsByPartition(commitToExistingAndMissing(8, "mover", -1, ""))).startsWith("t-0 NONE");
        int offsetsPartition = coordinator.partitionFor("mover");

        moveLeader(offsetsPartition, 2);
        assertThat(fetchCommitted("mover").errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
        String elsewhere = "other";
        while (coordinator.partitionFor(elsewhere) == offsetsPartition) {
            elsewhere += "-";
        }
        assertThat(fetchCommitted(elsewhere).errorCode()).as("a group on another partition is still served").isZero();

        moveLeader(offsetsPartition, 1);
        OffsetFetchResponseData replayed = fetchCommitted("mover");
        assertThat(replayed.errorCode()).isZero();
        assertThat(replayed.topics()).singleElement().satisfies(topic -> assertThat(topic.partitions())
                .singleElement().satisfies(partition -> assertThat(partition.committedOffset()).isEqualTo(5)));
    }

    /** A PartitionChangeRecord making {@code leader} the leader of a partition of __consumer_offsets. */
    private void moveLeader(int offsetsPartition, int leader) throws Exception {
        Uuid topicId = metadata.image().topic(GroupCoordinator.TOPIC).id();
        metadata.submit(image -> new MetadataChange<>(List.of(new VersionedRecord(MetadataRecordType.PARTITION_CHANGE_RECORD,
                (short) 0, new PartitionChangeRecordData().setTopicId(topicId).setPartitionId(offsetsPartition).setLeader(leader))),
                null)).get(10, TimeUnit.SECONDS);
        assertThat(metadata.image().topic(GroupCoordinator.TOPIC).partition(offsetsPartition).leader()).isEqualTo(leader);
    }

    private OffsetFetchResponseData fetchCommitted(String group) throws Exception {
        return (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 7,
                new OffsetFetchRequestData().setGroupId(group).setTopics(null));
    }

    @Test
    void offsetCommitsOfPartitionsThatDoNotExistAreUnknownTopicOrPartitionInEveryVersion() throws Exception {
        call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g"));
        createTopic("t", 1);
        JoinGroupResponseData member = joinedMember("with-member");
        for (int version = 2; version <= 9; version++) {
            assertThat(errorsByPartition(commitToExistingAndMissing(version, "simple-" + version, -1, "")))
                    .as("simple commit, v%d", version)
                    .containsExactly("t-0 NONE", "t-3 UNKNOWN_TOPIC_OR_PARTITION", "missing-0 UNKNOWN_TOPIC_OR_PARTITION");
            assertThat(errorsByPartition(commitToExistingAndMissing(version, "with-member", member.generationId(),
                    member.memberId()))).as("member's commit, v%d", version)
                    .containsExactly("t-0 NONE", "t-3 UNKNOWN_TOPIC_OR_PARTITION", "missing-0 UNKNOWN_TOPIC_OR_PARTITION");
            // Whatever the group answers (a stale generation here), a partition that does not exist is unknown.
            assertThat(errorsByPartition(commitToExistingAndMissing(version, "with-member", member.generationId() + 1,
                    member.memberId()))).as("stale generation, v%d", version)
                    .containsExactly("t-0 ILLEGAL_GENERATION", "t-3 UNKNOWN_TOPIC_OR_PARTITION",
                            "missing-0 UNKNOWN_TOPIC_OR_PARTITION");
        }
        OffsetFetchResponseData stored = (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 7,
                new OffsetFetchRequestData().setGroupId("with-member").setTopics(null));
        assertThat(stored.topics()).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("t");
            assertThat(topic.partitions()).extracting(p -> p.partitionIndex()).containsExactly(0);
        });
    }

    @Test
    void offsetFetchAnswersInTheShapeOfEachVersion() throws Exception {
        call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g"));
        createTopic("t", 2);
        OffsetCommitResponseData committed = (OffsetCommitResponseData) call(ApiKey.OFFSET_COMMIT, 8,
                new OffsetCommitRequestData().setGroupId("g").setGenerationIdOrMemberEpoch(-1).setMemberId("")
                        .setTopics(List.of(new OffsetCommitRequestTopic().setName("t").setPartitions(List.of(
                                new OffsetCommitRequestPartition().setPartitionIndex(1).setCommittedOffset(12)
                                        .setCommittedMetadata("m"))))));
        assertThat(committed.topics().get(0).partitions().get(0).errorCode()).isZero();

        OffsetFetchResponseData v1 = (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 1,
                new OffsetFetchRequestData().setGroupId("g").setTopics(List.of(
                        new OffsetFetchRequestTopic().setName("t").setPartitionIndexes(List.of(0, 1)))));
        OffsetFetchResponseData all = (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 7,
                new OffsetFetchRequestData().setGroupId("g").setTopics(null).setRequireStable(true));
        OffsetFetchResponseData batched = (OffsetFetchResponseData) call(ApiKey.OFFSET_FETCH, 9,
                new OffsetFetchRequestData().setGroups(List.of(
                        new OffsetFetchRequestGroup().setGroupId("g").setTopics(null),
                        new OffsetFetchRequestGroup().setGroupId("other").setTopics(null))));

        assertThat(v1.topics().get(0).partitions()).extracting(p -> p.committedOffset()).containsExactly(-1L, 12L);
        assertThat(all.topics()).hasSize(1);
        assertThat(all.topics().get(0).partitions().get(0).metadata()).isEqualTo("m");
        assertThat(batched.groups()).extracting(OffsetFetchResponseData.OffsetFetchResponseGroup::groupId)
                .containsExactly("g", "other");
        assertThat(batched.groups().get(0).topics().get(0).partitions().get(0).committedOffset()).isEqualTo(12);
        assertThat(batched.groups().get(1).topics()).isEmpty();
    }

    @Test
    void oldVersionsOfJoinAndLeaveCarryTheirErrorsWhereTheyCan() throws Exception {
        call(ApiKey.FIND_COORDINATOR, 3, new FindCoordinatorRequestData().setKey("g"));

        JoinGroupResponseData join = (JoinGroupResponseData) call(ApiKey.JOIN_GROUP, 5,
                new JoinGroupRequestData().setGroupId("g").setSessionTimeoutMs(10).setRebalanceTimeoutMs(10)
                        .setMemberId("").setProtocolType("consumer").setProtocols(List.of()));
        LeaveGroupResponseData leave = (LeaveGroupResponseData) call(ApiKey.LEAVE_GROUP, 1,
                new LeaveGroupRequestData().setGroupId("g").setMemberId("nobody"));
        ListGroupsResponseData listed = (ListGroupsResponseData) call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestData().setStatesFilter(List.of("Assigning")));

        assertThat(join.errorCode()).isEqualTo(Errors.INVALID_SESSION_TIMEOUT.code());
        // JoinGroup v5's protocol name is not nullable.
        assertThat(join.protocolName()).isEmpty();
        assertThat(leave.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(listed.groups()).isEmpty();
    }
}
