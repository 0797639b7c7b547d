package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeAclsRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeQuorumRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.ListTransactionsResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ACL matrix (issue 22): for every API a single broker advertises, a request from a user (alice, over
 * SASL_PLAINTEXT) without ACLs, with any one of the ACLs Kafka requires for it missing, or with DESCRIBE in place of
 * an operation that implies it, is answered with an authorization error, and what it would change is unchanged;
 * with the ACLs it requires, the same request is answered without an authorization error. APIs that
 * filter instead of refusing (ListGroups, ListTransactions) list what alice may describe. A new API the matrix does
 * not cover fails the test.
 */
class AclMatrixIT {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_admin=\"admin-secret\" user_alice=\"alice-secret\";";
    private static final Set<Errors> AUTHORIZATION_ERRORS = EnumSet.of(Errors.TOPIC_AUTHORIZATION_FAILED,
            Errors.GROUP_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED,
            Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
    /** Answered to anyone authenticated, as in Kafka. */
    private static final Set<ApiKeys> OPEN = EnumSet.of(ApiKeys.API_VERSIONS, ApiKeys.SASL_HANDSHAKE,
            ApiKeys.SASL_AUTHENTICATE, ApiKeys.DESCRIBE_CLUSTER);

    @TempDir
    static Path dir;
    private static SpoolProcess broker;
    private static int saslPort;
    private static Admin admin;

    /**
     * One row: a request, the ACLs that let it through (each one needed), and the state a refused request must leave
     * as it was (null when it changes nothing a test can see).
     */
    private record Case(ApiKeys api, int version, Supplier<ApiMessage> request, List<AclBinding> grants,
                        State state) {
    }

    @FunctionalInterface
    private interface State {
        Object read() throws Exception;
    }

    @BeforeAll
    static void start() throws Exception {
        broker = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
                "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS,
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:admin");
        saslPort = broker.listenerPorts().get("SASL_PLAINTEXT");
        admin = Admin.create(client("admin"));
        List<NewTopic> topics = new ArrayList<>();
        for (String topic : List.of("m", "mdel", "mrec", "mmark", "mconf", "mpart")) {
            topics.add(new NewTopic(topic, 1, (short) 1));
        }
        admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        Map<String, Object> producerSettings = new HashMap<>(client("admin"));
        producerSettings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "mt");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings, new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("m", 0, "k", "v"));
            producer.send(new ProducerRecord<>("mrec", 0, "k", "v"));
            producer.commitTransaction();
        }
        for (String group : List.of("mg", "mod", "mdg")) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition("m", 0), new OffsetAndMetadata(1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<String, Object> client(String user) {
        return SecureClients.plainSaslUser(saslPort, user);
    }

    private static AclBinding allow(ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW));
    }

    private static AclBinding onCluster(AclOperation operation) {
        return allow(ResourceType.CLUSTER, "kafka-cluster", operation);
    }

    private static long endOffset(String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                .get(partition).offset();
    }

    /** The group's committed offset of m-0, or null. */
    private static Long committed(String group) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).get(new TopicPartition("m", 0));
        return offset == null ? null : offset.offset();
    }

    /** The ACLs on topic x (the CreateAcls and DeleteAcls rows'). */
    private static Object aclsOnX() throws Exception {
        return new java.util.HashSet<>(admin.describeAcls(new AclBindingFilter(new ResourcePattern(ResourceType.TOPIC,
                "x", PatternType.LITERAL).toFilter(), AccessControlEntryFilter.ANY)).values().get(30, TimeUnit.SECONDS));
    }

    private static Object quotasOfCarol() throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.containsOnly(List.of(
                ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "carol")))).entities()
                .get(30, TimeUnit.SECONDS);
    }

    private static Set<String> topics() throws Exception {
        return admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }

    private static String retention(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        return config.get("retention.ms").value();
    }

    private static State nothing() {
        return () -> null;
    }

    private static List<Case> cases() throws Exception {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case(ApiKeys.PRODUCE, 9, () -> new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(
                        new ProduceRequestData.TopicProduceData().setName("m").setPartitionData(List.of(
                                new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(
                                        MemoryRecords.withRecords(Compression.NONE,
                                                new SimpleRecord("v".getBytes())))))).iterator())),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.WRITE)),
                () -> endOffset("m")));
        cases.add(new Case(ApiKeys.FETCH, 12, () -> new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0)
                .setMinBytes(1).setMaxBytes(1 << 20).setSessionEpoch(-1).setTopics(List.of(
                        new FetchRequestData.FetchTopic().setTopic("m").setPartitions(List.of(
                                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
                                        .setPartitionMaxBytes(1 << 20))))),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.LIST_OFFSETS, 7, () -> new ListOffsetsRequestData().setReplicaId(-1).setTopics(
                List.of(new ListOffsetsRequestData.ListOffsetsTopic().setName("m").setPartitions(List.of(
                        new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1))))),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.METADATA, 12, () -> new MetadataRequestData().setTopics(List.of(
                new MetadataRequestData.MetadataRequestTopic().setName("m"))),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.OFFSET_COMMIT, 8, () -> new OffsetCommitRequestData().setGroupId("mg")
                .setGenerationIdOrMemberEpoch(-1).setMemberId("").setTopics(List.of(
                        new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("m").setPartitions(List.of(
                                new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0)
                                        .setCommittedOffset(0))))),
                List.of(allow(ResourceType.GROUP, "mg", AclOperation.READ),
                        allow(ResourceType.TOPIC, "m", AclOperation.READ)),
                () -> committed("mg")));
        cases.add(new Case(ApiKeys.OFFSET_FETCH, 8, () -> new OffsetFetchRequestData().setGroups(List.of(
                new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("mg").setTopics(null))),
                List.of(allow(ResourceType.GROUP, "mg", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.FIND_COORDINATOR, 4, () -> new FindCoordinatorRequestData().setKeyType((byte) 0)
                .setCoordinatorKeys(List.of("mg")),
                List.of(allow(ResourceType.GROUP, "mg", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.JOIN_GROUP, 7, () -> new JoinGroupRequestData().setGroupId("mj")
                .setSessionTimeoutMs(10000).setRebalanceTimeoutMs(10000).setMemberId("").setProtocolType("consumer")
                .setProtocols(new JoinGroupRequestData.JoinGroupRequestProtocolCollection(List.of(
                        new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
                                .setMetadata(new byte[0])).iterator())),
                List.of(allow(ResourceType.GROUP, "mj", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.HEARTBEAT, 4, () -> new HeartbeatRequestData().setGroupId("mj").setGenerationId(1)
                .setMemberId("x"), List.of(allow(ResourceType.GROUP, "mj", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.LEAVE_GROUP, 4, () -> new LeaveGroupRequestData().setGroupId("mj").setMembers(
                List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId("x"))),
                List.of(allow(ResourceType.GROUP, "mj", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.SYNC_GROUP, 5, () -> new SyncGroupRequestData().setGroupId("mj").setGenerationId(1)
                .setMemberId("x").setProtocolType("consumer").setProtocolName("range"),
                List.of(allow(ResourceType.GROUP, "mj", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_GROUPS, 5, () -> new DescribeGroupsRequestData().setGroups(List.of("mg")),
                List.of(allow(ResourceType.GROUP, "mg", AclOperation.DESCRIBE)), nothing()));
        // KIP-848: a member needs READ on its group and DESCRIBE on each topic it subscribes to.
        cases.add(new Case(ApiKeys.CONSUMER_GROUP_HEARTBEAT, 1, () -> new ConsumerGroupHeartbeatRequestData()
                .setGroupId("mh").setMemberId("matrix-member").setMemberEpoch(0).setRebalanceTimeoutMs(10000)
                .setSubscribedTopicNames(List.of("m")).setTopicPartitions(List.of()),
                List.of(allow(ResourceType.GROUP, "mh", AclOperation.READ),
                        allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE)),
                () -> admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
                        .anyMatch(group -> group.groupId().equals("mh"))));
        cases.add(new Case(ApiKeys.CONSUMER_GROUP_DESCRIBE, 0, () -> new ConsumerGroupDescribeRequestData()
                .setGroupIds(List.of("mg")), List.of(allow(ResourceType.GROUP, "mg", AclOperation.DESCRIBE)),
                nothing()));
        cases.add(new Case(ApiKeys.CREATE_TOPICS, 7, () -> new CreateTopicsRequestData().setTimeoutMs(10000)
                .setTopics(new CreateTopicsRequestData.CreatableTopicCollection(List.of(
                        new CreateTopicsRequestData.CreatableTopic().setName("mc").setNumPartitions(1)
                                .setReplicationFactor((short) 1)).iterator())),
                List.of(allow(ResourceType.TOPIC, "mc", AclOperation.CREATE)),
                () -> topics().contains("mc")));
        cases.add(new Case(ApiKeys.DELETE_TOPICS, 6, () -> new DeleteTopicsRequestData().setTimeoutMs(10000)
                .setTopics(List.of(new DeleteTopicsRequestData.DeleteTopicState().setName("mdel")
                        .setTopicId(Uuid.ZERO_UUID))),
                List.of(allow(ResourceType.TOPIC, "mdel", AclOperation.DELETE)),
                () -> topics().contains("mdel")));
        cases.add(new Case(ApiKeys.DELETE_RECORDS, 2, () -> new DeleteRecordsRequestData().setTimeoutMs(10000)
                .setTopics(List.of(new DeleteRecordsRequestData.DeleteRecordsTopic().setName("mrec").setPartitions(
                        List.of(new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0)
                                .setOffset(1))))),
                List.of(allow(ResourceType.TOPIC, "mrec", AclOperation.DELETE)), () -> {
                    TopicPartition partition = new TopicPartition("mrec", 0);
                    return admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).all()
                            .get(30, TimeUnit.SECONDS).get(partition).offset();
                }));
        cases.add(new Case(ApiKeys.INIT_PRODUCER_ID, 4, () -> new InitProducerIdRequestData()
                .setTransactionalId("mi").setTransactionTimeoutMs(60000).setProducerId(-1).setProducerEpoch((short) -1),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mi", AclOperation.WRITE)), nothing()));
        cases.add(new Case(ApiKeys.OFFSET_FOR_LEADER_EPOCH, 4, () -> new OffsetForLeaderEpochRequestData()
                .setReplicaId(-1).setTopics(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection(List.of(
                        new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic("m").setPartitions(List.of(
                                new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(0)
                                        .setLeaderEpoch(0).setCurrentLeaderEpoch(-1)))).iterator())),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.ADD_PARTITIONS_TO_TXN, 3, () -> new AddPartitionsToTxnRequestData()
                .setV3AndBelowTransactionalId("mt2").setV3AndBelowProducerId(0).setV3AndBelowProducerEpoch((short) 0)
                .setV3AndBelowTopics(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(List.of(
                        new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic().setName("m")
                                .setPartitions(List.of(0))).iterator())),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mt2", AclOperation.WRITE),
                        allow(ResourceType.TOPIC, "m", AclOperation.WRITE)), nothing()));
        cases.add(new Case(ApiKeys.ADD_OFFSETS_TO_TXN, 3, () -> new AddOffsetsToTxnRequestData()
                .setTransactionalId("mt2").setProducerId(0).setProducerEpoch((short) 0).setGroupId("mg"),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mt2", AclOperation.WRITE),
                        allow(ResourceType.GROUP, "mg", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.END_TXN, 3, () -> new EndTxnRequestData().setTransactionalId("mt2")
                .setProducerId(0).setProducerEpoch((short) 0).setCommitted(false),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mt2", AclOperation.WRITE)), nothing()));
        cases.add(new Case(ApiKeys.WRITE_TXN_MARKERS, 1, () -> new WriteTxnMarkersRequestData().setMarkers(List.of(
                new WriteTxnMarkersRequestData.WritableTxnMarker().setProducerId(424242).setProducerEpoch((short) 0)
                        .setTransactionResult(false).setCoordinatorEpoch(0).setTopics(List.of(
                                new WriteTxnMarkersRequestData.WritableTxnMarkerTopic().setName("mmark")
                                        .setPartitionIndexes(List.of(0)))))),
                List.of(onCluster(AclOperation.CLUSTER_ACTION)),
                () -> endOffset("mmark")));
        cases.add(new Case(ApiKeys.TXN_OFFSET_COMMIT, 3, () -> new TxnOffsetCommitRequestData().setTransactionalId("mt2")
                .setGroupId("mg").setProducerId(0).setProducerEpoch((short) 0).setGenerationIdOrMemberEpoch(-1).setMemberId("")
                .setTopics(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("m")
                        .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                .setPartitionIndex(0).setCommittedOffset(0))))),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mt2", AclOperation.WRITE),
                        allow(ResourceType.GROUP, "mg", AclOperation.READ),
                        allow(ResourceType.TOPIC, "m", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_ACLS, 3, () -> new DescribeAclsRequestData().setResourceTypeFilter((byte) 1)
                .setResourceNameFilter(null).setPatternTypeFilter((byte) 1).setPrincipalFilter(null)
                .setHostFilter(null).setOperation((byte) 1).setPermissionType((byte) 1),
                List.of(onCluster(AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.CREATE_ACLS, 3, () -> new CreateAclsRequestData().setCreations(List.of(
                new CreateAclsRequestData.AclCreation().setResourceType((byte) 2).setResourceName("x")
                        .setResourcePatternType((byte) 3).setPrincipal("User:bob").setHost("*").setOperation((byte) 3)
                        .setPermissionType((byte) 3))),
                List.of(onCluster(AclOperation.ALTER)), AclMatrixIT::aclsOnX));
        cases.add(new Case(ApiKeys.DELETE_ACLS, 3, () -> new DeleteAclsRequestData().setFilters(List.of(
                new DeleteAclsRequestData.DeleteAclsFilter().setResourceTypeFilter((byte) 2)
                        .setResourceNameFilter("x").setPatternTypeFilter((byte) 3).setPrincipalFilter(null)
                        .setHostFilter(null).setOperation((byte) 1).setPermissionType((byte) 1))),
                List.of(onCluster(AclOperation.ALTER)), AclMatrixIT::aclsOnX));
        cases.add(new Case(ApiKeys.DESCRIBE_CONFIGS, 4, () -> new DescribeConfigsRequestData().setResources(List.of(
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType((byte) 2)
                        .setResourceName("m").setConfigurationKeys(null))),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE_CONFIGS)), nothing()));
        cases.add(new Case(ApiKeys.ALTER_CONFIGS, 2, () -> new AlterConfigsRequestData().setResources(
                new AlterConfigsRequestData.AlterConfigsResourceCollection(List.of(
                        new AlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 2)
                                .setResourceName("mconf").setConfigs(new AlterConfigsRequestData.AlterableConfigCollection(
                                        List.of(new AlterConfigsRequestData.AlterableConfig().setName("retention.ms")
                                                .setValue("123456")).iterator()))).iterator())),
                List.of(allow(ResourceType.TOPIC, "mconf", AclOperation.ALTER_CONFIGS)), () -> retention("mconf")));
        cases.add(new Case(ApiKeys.INCREMENTAL_ALTER_CONFIGS, 1, () -> new IncrementalAlterConfigsRequestData()
                .setResources(new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection(List.of(
                        new IncrementalAlterConfigsRequestData.AlterConfigsResource().setResourceType((byte) 2)
                                .setResourceName("mconf").setConfigs(
                                        new IncrementalAlterConfigsRequestData.AlterableConfigCollection(List.of(
                                                new IncrementalAlterConfigsRequestData.AlterableConfig()
                                                        .setName("retention.ms").setValue("654321")
                                                        .setConfigOperation((byte) 0)).iterator()))).iterator())),
                List.of(allow(ResourceType.TOPIC, "mconf", AclOperation.ALTER_CONFIGS)), () -> retention("mconf")));
        cases.add(new Case(ApiKeys.ALTER_REPLICA_LOG_DIRS, 2, () -> new AlterReplicaLogDirsRequestData().setDirs(
                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirCollection(List.of(
                        new AlterReplicaLogDirsRequestData.AlterReplicaLogDir().setPath("/nonexistent").setTopics(
                                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopicCollection(List.of(
                                        new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic().setName("m")
                                                .setPartitions(List.of(0))).iterator()))).iterator())),
                List.of(onCluster(AclOperation.ALTER)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_LOG_DIRS, 4, () -> new DescribeLogDirsRequestData().setTopics(null),
                List.of(onCluster(AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.CREATE_PARTITIONS, 3, () -> new CreatePartitionsRequestData().setTimeoutMs(10000)
                .setTopics(new CreatePartitionsRequestData.CreatePartitionsTopicCollection(List.of(
                        new CreatePartitionsRequestData.CreatePartitionsTopic().setName("mpart").setCount(2)
                                .setAssignments(null)).iterator())),
                List.of(allow(ResourceType.TOPIC, "mpart", AclOperation.ALTER)),
                () -> admin.describeTopics(List.of("mpart")).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get("mpart").partitions().size()));
        cases.add(new Case(ApiKeys.DELETE_GROUPS, 2, () -> new DeleteGroupsRequestData().setGroupsNames(List.of("mdg")),
                List.of(allow(ResourceType.GROUP, "mdg", AclOperation.DELETE)),
                () -> committed("mdg")));
        cases.add(new Case(ApiKeys.ELECT_LEADERS, 2, () -> new ElectLeadersRequestData().setElectionType((byte) 0)
                .setTimeoutMs(10000).setTopicPartitions(new ElectLeadersRequestData.TopicPartitionsCollection(List.of(
                        new ElectLeadersRequestData.TopicPartitions().setTopic("m").setPartitions(List.of(0)))
                        .iterator())),
                List.of(onCluster(AclOperation.ALTER)), nothing()));
        cases.add(new Case(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, 0, () -> new AlterPartitionReassignmentsRequestData()
                .setTimeoutMs(10000).setTopics(List.of(new AlterPartitionReassignmentsRequestData.ReassignableTopic()
                        .setName("m").setPartitions(List.of(
                                new AlterPartitionReassignmentsRequestData.ReassignablePartition().setPartitionIndex(0)
                                        .setReplicas(null))))),
                List.of(onCluster(AclOperation.ALTER)), nothing()));
        cases.add(new Case(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, () -> new ListPartitionReassignmentsRequestData()
                .setTimeoutMs(10000).setTopics(null), List.of(onCluster(AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.OFFSET_DELETE, 0, () -> new OffsetDeleteRequestData().setGroupId("mod").setTopics(
                new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection(List.of(
                        new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName("m").setPartitions(List.of(
                                new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))))
                        .iterator())),
                List.of(allow(ResourceType.GROUP, "mod", AclOperation.DELETE),
                        allow(ResourceType.TOPIC, "m", AclOperation.READ)),
                () -> committed("mod")));
        cases.add(new Case(ApiKeys.DESCRIBE_CLIENT_QUOTAS, 1, () -> new DescribeClientQuotasRequestData()
                .setComponents(List.of()).setStrict(false), List.of(onCluster(AclOperation.DESCRIBE_CONFIGS)),
                nothing()));
        cases.add(new Case(ApiKeys.ALTER_CLIENT_QUOTAS, 1, () -> new AlterClientQuotasRequestData().setEntries(
                List.of(new AlterClientQuotasRequestData.EntryData().setEntity(List.of(
                        new AlterClientQuotasRequestData.EntityData().setEntityType("user").setEntityName("carol")))
                        .setOps(List.of(new AlterClientQuotasRequestData.OpData().setKey("producer_byte_rate")
                                .setValue(1024))))),
                List.of(onCluster(AclOperation.ALTER_CONFIGS)), AclMatrixIT::quotasOfCarol));
        cases.add(new Case(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, 0, () -> new DescribeUserScramCredentialsRequestData()
                .setUsers(null), List.of(onCluster(AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, 0, () -> new AlterUserScramCredentialsRequestData()
                .setDeletions(List.of(new AlterUserScramCredentialsRequestData.ScramCredentialDeletion()
                        .setName("carol").setMechanism((byte) 1))).setUpsertions(List.of()),
                List.of(onCluster(AclOperation.ALTER)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_QUORUM, 2, () -> new DescribeQuorumRequestData().setTopics(List.of(
                new DescribeQuorumRequestData.TopicData().setTopicName("__cluster_metadata").setPartitions(List.of(
                        new DescribeQuorumRequestData.PartitionData().setPartitionIndex(0))))),
                List.of(onCluster(AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_PRODUCERS, 0, () -> new DescribeProducersRequestData().setTopics(
                new DescribeProducersRequestData.TopicRequestCollection(List.of(new DescribeProducersRequestData
                        .TopicRequest().setName("m").setPartitionIndexes(List.of(0))).iterator())),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.READ)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_TRANSACTIONS, 0, () -> new DescribeTransactionsRequestData()
                .setTransactionalIds(List.of("mt")),
                List.of(allow(ResourceType.TRANSACTIONAL_ID, "mt", AclOperation.DESCRIBE)), nothing()));
        cases.add(new Case(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, 0, () -> new DescribeTopicPartitionsRequestData()
                .setTopics(List.of(new DescribeTopicPartitionsRequestData.TopicRequest().setName("m")))
                .setResponsePartitionLimit(100),
                List.of(allow(ResourceType.TOPIC, "m", AclOperation.DESCRIBE)), nothing()));
        return cases;
    }

    private static void grant(List<AclBinding> acls) throws Exception {
        if (!acls.isEmpty()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** The ACL with the operation it implies in place of its own (DESCRIBE, DESCRIBE_CONFIGS), or null for none. */
    private static AclBinding weaker(AclBinding acl) {
        AclOperation operation = acl.entry().operation();
        AclOperation implied = switch (operation) {
            case READ, WRITE, DELETE, ALTER -> AclOperation.DESCRIBE;
            case ALTER_CONFIGS -> AclOperation.DESCRIBE_CONFIGS;
            default -> null;
        };
        return implied == null ? null : new AclBinding(acl.pattern(), new AccessControlEntry(
                acl.entry().principal(), acl.entry().host(), implied, acl.entry().permissionType()));
    }

    private static void revokeAll() throws Exception {
        admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:alice", null, AclOperation.ANY, AclPermissionType.ANY))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /**
     * The authorization errors in a response: Kafka's error counts, and the top-level error code, which some
     * responses (DescribeUserScramCredentials) leave out of their counts.
     */
    private static Set<Errors> authorizationErrors(AbstractResponse response) throws Exception {
        Set<Errors> found = EnumSet.noneOf(Errors.class);
        response.errorCounts().keySet().stream().filter(AUTHORIZATION_ERRORS::contains).forEach(found::add);
        try {
            Errors topLevel = Errors.forCode((short) response.data().getClass().getMethod("errorCode")
                    .invoke(response.data()));
            if (AUTHORIZATION_ERRORS.contains(topLevel)) {
                found.add(topLevel);
            }
        } catch (NoSuchMethodException noTopLevelError) {
            // Only per-item errors, counted above.
        }
        return found;
    }

    @Test
    void everyApiRefusesWithoutItsAclsAndChangesNothingAndAnswersWithThem() throws Exception {
        List<Case> cases = cases();
        Set<ApiKeys> covered = EnumSet.copyOf(OPEN);
        cases.forEach(row -> covered.add(row.api()));
        covered.add(ApiKeys.LIST_GROUPS);
        covered.add(ApiKeys.LIST_TRANSACTIONS);
        try (RawConnection alice = new RawConnection(saslPort)) {
            assertThat(alice.authenticatePlain("alice", "alice-secret").data().errorCode()).isZero();
            ApiVersionsResponse versions = (ApiVersionsResponse) alice.send(ApiKeys.API_VERSIONS, (short) 3,
                    new ApiVersionsRequestData().setClientSoftwareName("matrix").setClientSoftwareVersion("1"));
            Set<String> uncovered = new TreeSet<>();
            versions.data().apiKeys().forEach(key -> {
                if (!covered.contains(ApiKeys.forId(key.apiKey()))) {
                    uncovered.add(ApiKeys.forId(key.apiKey()).name);
                }
            });
            assertThat(uncovered).as("advertised APIs the matrix does not cover").isEmpty();

            AbstractResponse cluster = alice.send(ApiKeys.DESCRIBE_CLUSTER, (short) 1, new DescribeClusterRequestData());
            assertThat(authorizationErrors(cluster)).as("DescribeCluster is open").isEmpty();

            List<String> failures = new ArrayList<>();
            for (Case row : cases) {
                // Without any ACL, with each one of its ACLs missing, and with a weaker operation in place of each
                // (DESCRIBE for an operation that implies it): refused, and nothing changed.
                List<List<AclBinding>> refusedGrants = new ArrayList<>();
                refusedGrants.add(List.of());
                for (int i = 0; i < row.grants().size(); i++) {
                    if (row.grants().size() > 1) {
                        List<AclBinding> allButOne = new ArrayList<>(row.grants());
                        allButOne.remove(i);
                        refusedGrants.add(allButOne);
                    }
                    AclBinding weaker = weaker(row.grants().get(i));
                    if (weaker != null) {
                        List<AclBinding> weakened = new ArrayList<>(row.grants());
                        weakened.set(i, weaker);
                        refusedGrants.add(weakened);
                    }
                }
                for (List<AclBinding> grants : refusedGrants) {
                    revokeAll();
                    grant(grants);
                    Object before = row.state().read();
                    AbstractResponse refused = alice.send(row.api(), (short) row.version(), row.request().get());
                    if (authorizationErrors(refused).isEmpty()) {
                        failures.add(row.api() + " with only " + grants + ": " + refused.errorCounts());
                    }
                    Object after = row.state().read();
                    if (!java.util.Objects.equals(before, after)) {
                        failures.add(row.api() + " refused with " + grants + " changed " + before + " to " + after);
                    }
                }
                revokeAll();
                grant(row.grants());
                AbstractResponse allowed = alice.send(row.api(), (short) row.version(), row.request().get());
                if (!authorizationErrors(allowed).isEmpty()) {
                    failures.add(row.api() + " with " + row.grants() + ": " + allowed.errorCounts());
                }
            }
            assertThat(failures).isEmpty();

            revokeAll();
            assertThat(listedGroups(alice)).doesNotContain("mg");
            assertThat(listedTransactions(alice)).doesNotContain("mt");
            grant(List.of(allow(ResourceType.GROUP, "mg", AclOperation.DESCRIBE),
                    allow(ResourceType.TRANSACTIONAL_ID, "mt", AclOperation.DESCRIBE)));
            assertThat(listedGroups(alice)).contains("mg");
            assertThat(listedTransactions(alice)).contains("mt");
        }
    }

    private static List<String> listedGroups(RawConnection connection) throws Exception {
        ListGroupsResponse response = (ListGroupsResponse) connection.send(ApiKeys.LIST_GROUPS, (short) 4,
                new ListGroupsRequestData());
        return response.data().groups().stream().map(ListGroupsResponseData.ListedGroup::groupId).toList();
    }

    private static List<String> listedTransactions(RawConnection connection) throws Exception {
        ListTransactionsResponse response = (ListTransactionsResponse) connection.send(ApiKeys.LIST_TRANSACTIONS,
                (short) 1, new ListTransactionsRequestData());
        return response.data().transactionStates().stream()
                .map(ListTransactionsResponseData.TransactionState::transactionalId).toList();
    }
}
