package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ACLs and quotas on a cluster of three nodes (issue 22): ACLs made through one node are metadata records every
 * node applies; a CreateTopics a node forwards to the active controller is authorized where the client sent it (the
 * controller sees only the forwarding node): a build that authorized after forwarding created the refused topic; a
 * user with prefixed ACLs writes and reads a replicated topic through any node; an ACL removed stops that user on
 * every node. A client quota set through one node is described by every node and throttles a producer at the
 * partition's leader, wherever that is.
 */
class ClusterAclsIT {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_admin=\"admin-secret\" user_alice=\"alice-secret\";";

    private static SpoolCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = SpoolCluster.startWithSaslListener(3, "sasl.enabled.mechanisms=PLAIN", "group.initial.rebalance.delay.ms=0",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS,
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                // Nodes speak PLAINTEXT to each other, as User:ANONYMOUS.
                "super.users=User:admin;User:ANONYMOUS");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, Object> client(int nodeId, String user) {
        return SecureClients.plainSaslUser(cluster.node(nodeId).listenerPorts().get("SASL_PLAINTEXT"), user);
    }

    private static AclBinding aliceMay(ResourceType type, String name, PatternType pattern, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW));
    }

    @Test
    void aclsMadeOnOneNodeHoldOnEveryNodeAndForwardedRequestsAreAuthorizedWhereTheyCameIn() throws Exception {
        int controller;
        try (Admin admin = Admin.create(client(1, "admin"))) {
            controller = admin.describeCluster().controller().get(30, TimeUnit.SECONDS).id();
            admin.createAcls(List.of(aliceMay(ResourceType.TOPIC, "alice-", PatternType.PREFIXED, AclOperation.ALL),
                    aliceMay(ResourceType.GROUP, "alice-", PatternType.PREFIXED, AclOperation.READ)))
                    .all().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic("admins-only", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        for (int nodeId = 1; nodeId <= 3; nodeId++) {
            int node = nodeId;
            try (Admin admin = Admin.create(client(nodeId, "admin"))) {
                awaitTrue(() -> admin.describeAcls(new AclBindingFilter(ResourcePatternFilter.ANY,
                        AccessControlEntryFilter.ANY)).values().get(30, TimeUnit.SECONDS).size() == 2,
                        "both ACLs on node " + node);
            }
        }

        // Kafka's admin client sends CreateTopics to the active controller itself; a raw request to another node
        // makes that node forward it, as a client that does not know the controller (kafkajs, librdkafka) does.
        int other = controller == 1 ? 2 : 1;
        try (RawConnection alice = new RawConnection(cluster.node(other).listenerPorts().get("SASL_PLAINTEXT"))) {
            assertThat(alice.authenticatePlain("alice", "alice-secret").data().errorCode()).isZero();
            CreateTopicsResponse created = (CreateTopicsResponse) alice.send(ApiKeys.CREATE_TOPICS, (short) 7,
                    new CreateTopicsRequestData().setTimeoutMs(30000).setTopics(
                            new CreateTopicsRequestData.CreatableTopicCollection(List.of(
                                    new CreateTopicsRequestData.CreatableTopic().setName("alice-orders")
                                            .setNumPartitions(3).setReplicationFactor((short) 3),
                                    new CreateTopicsRequestData.CreatableTopic().setName("bob-orders")
                                            .setNumPartitions(1).setReplicationFactor((short) 3)).iterator())));
            Map<String, Errors> errors = new HashMap<>();
            created.data().topics().forEach(topic -> errors.put(topic.name(), Errors.forCode(topic.errorCode())));
            assertThat(errors).containsEntry("alice-orders", Errors.NONE)
                    .containsEntry("bob-orders", Errors.TOPIC_AUTHORIZATION_FAILED);
        }
        try (Admin alice = Admin.create(client(other, "alice"))) {
            awaitTrue(() -> alice.listTopics().names().get(30, TimeUnit.SECONDS).contains("alice-orders"),
                    "alice-orders seen by alice");
            assertThat(alice.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain("admins-only",
                    "bob-orders");
        }
        try (Admin admin = Admin.create(client(controller, "admin"))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("alice-orders", "admins-only")
                    .doesNotContain("bob-orders");
        }

        SecureClients.produceAndConsume(client(controller, "alice"), client(other, "alice"), "alice-orders",
                "alice-readers");

        try (Admin admin = Admin.create(client(other, "admin"))) {
            admin.deleteAcls(List.of(new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, "alice-",
                    PatternType.PREFIXED), AccessControlEntryFilter.ANY))).all().get(30, TimeUnit.SECONDS);
        }
        for (int nodeId = 1; nodeId <= 3; nodeId++) {
            Map<String, Object> settings = new HashMap<>(client(nodeId, "alice"));
            settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10000);
            settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(),
                    new StringSerializer())) {
                awaitTrue(() -> catchThrowable(() -> producer.send(new ProducerRecord<>("alice-orders", "k", "v"))
                        .get(30, TimeUnit.SECONDS)) instanceof java.util.concurrent.ExecutionException refused
                        && refused.getCause() instanceof TopicAuthorizationException,
                        "alice refused WRITE through " + settings.get("bootstrap.servers"));
            }
        }
    }

    @Test
    void aQuotaSetThroughOneNodeHoldsOnEveryNode() throws Exception {
        ClientQuotaEntity probe = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "quota-probe"));
        try (Admin admin = Admin.create(client(1, "admin"))) {
            admin.createTopics(List.of(new NewTopic("quota-cluster", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
            // 100 kB/s: the first 1 MB (a window's credit) passes, what follows waits.
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(probe, List.of(
                    new ClientQuotaAlteration.Op("producer_byte_rate", 100_000.0))))).all().get(30, TimeUnit.SECONDS);
        }
        for (int node = 1; node <= cluster.size(); node++) {
            try (Admin admin = Admin.create(client(node, "admin"))) {
                awaitTrue(() -> Map.of("producer_byte_rate", 100_000.0).equals(admin.describeClientQuotas(
                        ClientQuotaFilter.all()).entities().get(30, TimeUnit.SECONDS).get(probe)),
                        "the quota described by node " + node);
            }
        }
        Map<String, Object> producerConfig = new HashMap<>(client(2, "admin"));
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "quota-probe");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            byte[] value = new byte[1000];
            // Well past the first 1 MB however slowly it goes out; the test ends at the first throttle.
            for (int i = 0; i < 2_000; i++) {
                producer.send(new ProducerRecord<>("quota-cluster", value));
            }
            awaitTrue(() -> producer.metrics().entrySet().stream()
                    .filter(metric -> metric.getKey().name().equals("produce-throttle-time-max")
                            && metric.getKey().group().equals("producer-metrics"))
                    .mapToDouble(metric -> (Double) metric.getValue().metricValue())
                    .anyMatch(throttleMs -> throttleMs > 0), "the leader throttling the producer");
            producer.close(Duration.ZERO);
        }
    }
}
