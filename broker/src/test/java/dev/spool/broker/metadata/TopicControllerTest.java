package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import dev.spool.protocol.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopicConfig;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicControllerTest {

    /** A cluster of broker 1, registered. */
    static final MetadataImage ONE_BROKER = registered(MetadataImage.EMPTY, 1);

    private final TopicController controller = new TopicController(new TopicDefaults(3, (short) 1, Map.of()),
            overrides -> overrides.containsKey("retention.ms") && overrides.get("retention.ms").equals("soon")
                    ? "retention.ms = 'soon' is not a LONG" : null);

    private static CreatableTopic topic(String name, int partitions, int replicationFactor) {
        return new CreatableTopic().setName(name).setNumPartitions(partitions)
                .setReplicationFactor((short) replicationFactor);
    }

    /** Applies a change's records as the metadata manager would. */
    private static MetadataImage applied(MetadataImage image, MetadataChange<?> change) {
        return image.apply(change.records(), image.offset() + change.records().size());
    }

    private MetadataImage withTopic(String name, int partitions) {
        return applied(ONE_BROKER,
                controller.createTopics(ONE_BROKER, List.of(topic(name, partitions, 1)), false));
    }

    @Test
    void createdTopicHasItsPartitionsLedByThisBroker() {
        MetadataChange<List<CreatableTopicResult>> change =
                controller.createTopics(ONE_BROKER, List.of(topic("orders", 4, 1)), false);

        CreatableTopicResult result = change.result().get(0);
        assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(result.numPartitions()).isEqualTo(4);
        assertThat(result.topicId()).isNotEqualTo(Uuid.ZERO_UUID);
        TopicImage created = applied(ONE_BROKER, change).topic("orders");
        assertThat(created.id()).isEqualTo(result.topicId());
        assertThat(created.partitions()).hasSize(4);
        assertThat(created.partition(3)).satisfies(partition -> {
            assertThat(partition.leader()).isEqualTo(1);
            assertThat(partition.replicas()).containsExactly(1);
            assertThat(partition.isr()).containsExactly(1);
        });
    }

    @Test
    void minusOneTakesTheBrokerDefaults() {
        CreatableTopicResult result = controller.createTopics(ONE_BROKER, List.of(topic("t", -1, -1)), false)
                .result().get(0);

        assertThat(result.numPartitions()).isEqualTo(3);
        assertThat(result.replicationFactor()).isEqualTo((short) 1);
    }

    @Test
    void validateOnlyWritesNoRecords() {
        MetadataChange<List<CreatableTopicResult>> change =
                controller.createTopics(ONE_BROKER, List.of(topic("t", 1, 1)), true);

        assertThat(change.records()).isEmpty();
        assertThat(change.result().get(0).errorCode()).isEqualTo(Errors.NONE.code());
    }

    @Test
    void refusesWhatKafkaRefuses() {
        MetadataImage image = withTopic("a.b", 1);
        List<CreatableTopic> requests = List.of(
                topic("a.b", 1, 1),
                topic("a_b", 1, 1),
                topic("bad/name", 1, 1),
                topic("zero", 0, 1),
                topic("replicated", 1, 3),
                topic("norepl", 1, 0),
                topic("badconfig", 1, 1).setConfigs(new ArrayList<>(List.of(
                        new CreatableTopicConfig().setName("retention.ms").setValue("soon")))));

        List<CreatableTopicResult> results = controller.createTopics(image, requests, false).result();

        assertThat(results).extracting(CreatableTopicResult::errorCode).containsExactly(
                Errors.TOPIC_ALREADY_EXISTS.code(),
                Errors.INVALID_TOPIC_EXCEPTION.code(),
                Errors.INVALID_TOPIC_EXCEPTION.code(),
                Errors.INVALID_PARTITIONS.code(),
                Errors.INVALID_REPLICATION_FACTOR.code(),
                Errors.INVALID_REPLICATION_FACTOR.code(),
                Errors.INVALID_CONFIG.code());
        assertThat(results.get(1).errorMessage()).contains("collides with existing topic: a.b");
        assertThat(results.get(4).errorMessage()).contains("only 1 broker(s) are registered");
        assertThat(results.get(6).errorMessage()).contains("retention.ms");
    }

    @Test
    void theMetadataLogsNameIsNoTopicButOtherDoubleUnderscoreNamesAre() {
        List<CreatableTopicResult> results = controller.createTopics(ONE_BROKER, List.of(
                topic("__cluster_metadata", 1, 1), topic("__cluster.metadata", 1, 1), topic("__mine", 1, 1)),
                false).result();

        assertThat(results).extracting(CreatableTopicResult::errorCode).containsExactly(
                Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code(), Errors.NONE.code());
        assertThat(results.get(0).errorMessage()).contains("metadata log");
    }

    @Test
    void duplicateNamesInOneRequestAreInvalid() {
        MetadataChange<List<CreatableTopicResult>> change = controller.createTopics(ONE_BROKER,
                List.of(topic("twice", 1, 1), topic("twice", 1, 1), topic("once", 1, 1)), false);

        assertThat(change.result()).extracting(CreatableTopicResult::errorCode)
                .containsExactly(Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code(), Errors.NONE.code());
        assertThat(applied(ONE_BROKER, change).topics()).extracting(TopicImage::name).containsExactly("once");
    }

    @Test
    void configOverridesBecomeConfigRecords() {
        CreatableTopic request = topic("compacted", 1, 1).setConfigs(new ArrayList<>(List.of(
                new CreatableTopicConfig().setName("cleanup.policy").setValue("compact"))));

        MetadataImage image = applied(ONE_BROKER,
                controller.createTopics(ONE_BROKER, List.of(request), false));

        assertThat(image.configs(ConfigResource.topic("compacted"))).containsExactly(Map.entry("cleanup.policy", "compact"));
    }

    @Test
    void deleteByNameOrIdRemovesTheTopicAndItsConfigs() {
        MetadataImage image = withTopic("gone", 2);
        Uuid id = image.topic("gone").id();

        MetadataChange<List<DeletableTopicResult>> change = controller.deleteTopics(image, List.of(
                new TopicController.TopicReference(null, id),
                new TopicController.TopicReference("missing", null),
                new TopicController.TopicReference(null, Uuid.randomUuid())));

        assertThat(change.result()).extracting(DeletableTopicResult::errorCode).containsExactly(
                Errors.NONE.code(), Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), Errors.UNKNOWN_TOPIC_ID.code());
        assertThat(change.result().get(0).name()).isEqualTo("gone");
        assertThat(change.records()).extracting(VersionedRecord::type)
                .containsExactly(MetadataRecordType.REMOVE_TOPIC_RECORD);
        assertThat(applied(image, change).topics()).isEmpty();
    }

    @Test
    void createPartitionsOnlyGrows() {
        MetadataImage image = withTopic("grow", 2);

        MetadataChange<List<CreatePartitionsTopicResult>> change = controller.createPartitions(image, List.of(
                new CreatePartitionsTopic().setName("grow").setCount(5),
                new CreatePartitionsTopic().setName("missing").setCount(5)), false);
        MetadataChange<List<CreatePartitionsTopicResult>> shrink = controller.createPartitions(image, List.of(
                new CreatePartitionsTopic().setName("grow").setCount(1)), false);

        assertThat(change.result()).extracting(CreatePartitionsTopicResult::errorCode)
                .containsExactly(Errors.NONE.code(), Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(applied(image, change).topic("grow").partitions()).hasSize(5);
        assertThat(shrink.result().get(0).errorCode()).isEqualTo(Errors.INVALID_PARTITIONS.code());
        assertThat(shrink.result().get(0).errorMessage()).contains("higher than the requested 1");
    }

    @Test
    void replicasArePlacedOverTheLiveBrokersAndLeadershipSpreads() {
        MetadataImage three = registered(registered(ONE_BROKER, 2), 3);
        List<List<Integer>> placed = ReplicaPlacement.place("spread", 0, 6, 3, ReplicaPlacement.liveBrokers(three));
        assertThat(placed).allSatisfy(replicas -> assertThat(replicas).containsExactlyInAnyOrder(1, 2, 3));
        assertThat(placed).extracting(replicas -> replicas.get(0)).as("each broker leads two of six")
                .containsOnly(1, 2, 3).hasSize(6);
        for (int broker = 1; broker <= 3; broker++) {
            int id = broker;
            assertThat(placed).filteredOn(replicas -> replicas.get(0) == id).hasSize(2);
        }

        MetadataImage image = applied(three, controller.createTopics(three, List.of(topic("single", 6, 1)), false));
        assertThat(image.topic("single").partitions().values()).extracting(PartitionImage::leader)
                .as("one replica each, leadership spread").containsOnly(1, 2, 3);
    }

    @Test
    void severalReplicasArePlacedOnDistinctBrokersAllInSyncTheFirstLeading() {
        MetadataImage three = registered(registered(ONE_BROKER, 2), 3);
        MetadataImage image = applied(three, controller.createTopics(three, List.of(topic("triple", 3, 3),
                new CreatableTopic().setName("assigned").setNumPartitions(-1).setReplicationFactor((short) -1)
                        .setAssignments(List.of(new CreatableReplicaAssignment().setPartitionIndex(0)
                                .setBrokerIds(List.of(3, 1))))), false));
        for (PartitionImage partition : image.topic("triple").partitions().values()) {
            assertThat(partition.replicas()).as("three distinct brokers").hasSize(3).doesNotHaveDuplicates();
            assertThat(partition.isr()).isEqualTo(partition.replicas());
            assertThat(partition.leader()).isEqualTo(partition.replicas().get(0));
        }
        assertThat(image.topic("triple").partitions().values()).extracting(PartitionImage::leader)
                .as("leadership spread").containsOnly(1, 2, 3);
        PartitionImage assigned = image.topic("assigned").partitions().get(0);
        assertThat(assigned.replicas()).as("as assigned").containsExactly(3, 1);
        assertThat(assigned.leader()).isEqualTo(3);
    }

    @Test
    void aFencedBrokerGetsNoReplicasAndAssignmentsMustNameLiveBrokers() {
        MetadataImage two = registered(ONE_BROKER, 2);
        MetadataImage fenced = two.apply(List.of(new VersionedRecord(MetadataRecordType.FENCE_BROKER_RECORD, (short) 0,
                new dev.spool.protocol.metadata.FenceBrokerRecordData().setId(2).setEpoch(1))), two.offset() + 1);

        List<CreatableTopicResult> results = controller.createTopics(fenced, List.of(topic("two", 1, 2),
                new CreatableTopic().setName("assigned").setNumPartitions(-1).setReplicationFactor((short) -1)
                        .setAssignments(List.of(new CreatableReplicaAssignment().setPartitionIndex(0)
                                .setBrokerIds(List.of(2))))), false).result();

        assertThat(results.get(0).errorCode()).isEqualTo(Errors.INVALID_REPLICATION_FACTOR.code());
        assertThat(results.get(0).errorMessage()).contains("only 1 broker(s) are registered");
        assertThat(results.get(1).errorCode()).isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT.code());
        assertThat(results.get(1).errorMessage()).contains("broker 2, which is not a live broker");
    }

    /** Brokers 1, 2 and 3 registered and topic {@code name}, one partition on all three. */
    static MetadataImage threeBrokersWithTopic(String name) {
        MetadataImage three = registered(registered(ONE_BROKER, 2), 3);
        MetadataChange<?> created = new TopicController(new TopicDefaults(1, (short) 3, Map.of()), overrides -> null)
                .createTopics(three, List.of(new CreatableTopic().setName(name).setNumPartitions(1)
                        .setReplicationFactor((short) 3)), false);
        return three.apply(created.records(), three.offset() + created.records().size());
    }

    /** {@code image} with broker {@code id} registered (one listener, PLAINTEXT). */
    static MetadataImage registered(MetadataImage image, int id) {
        MetadataChange<Long> registration = BrokerRegistrations.register(image, id, new Uuid(id, id),
                List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker-" + id, 9092, (short) 0)));
        return image.apply(registration.records(), registration.result());
    }
}
