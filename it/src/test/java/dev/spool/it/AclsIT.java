package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs (issue 22) with {@code authorizer.class.name} set to Kafka's StandardAuthorizer, on a SASL_PLAINTEXT listener
 * with PLAIN users: {@code kafka-acls --add/--list/--remove} as the super user; then, operation by operation, the
 * user alice without the ACL gets the client's authorization error and nothing changes, and with it succeeds. The
 * ACLs outlive a restart (they are metadata records). A broker without an authorizer answers the ACL APIs
 * SECURITY_DISABLED.
 */
class AclsIT {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_admin=\"admin-secret\" user_alice=\"alice-secret\";";

    @TempDir
    static Path dir;
    private static SpoolProcess broker;
    private static int saslPort;

    @BeforeAll
    static void start() throws Exception {
        broker = startBroker();
        try (Admin admin = Admin.create(client("admin"))) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1), new NewTopic("secret", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    private static SpoolProcess startBroker() throws Exception {
        SpoolProcess started = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
                "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS,
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users=User:admin");
        saslPort = started.listenerPorts().get("SASL_PLAINTEXT");
        return started;
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<String, Object> client(String user) {
        return SecureClients.plainSaslUser(saslPort, user);
    }

    private static void allow(ResourceType type, String name, PatternType pattern, AclOperation operation)
            throws Exception {
        try (Admin admin = Admin.create(client("admin"))) {
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(type, name, pattern),
                    new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /** The client's error for the protocol's error code, under the wrappers of futures. */
    private static Throwable rootOf(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof ApiException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static long endOffset(String topic) throws Exception {
        try (Admin admin = Admin.create(client("admin"))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                    .get(partition).offset();
        }
    }

    @Test
    void kafkaAclsAddsListsAndRemoves() throws Exception {
        Path adminConfig = dir.resolve("admin.properties");
        Files.writeString(adminConfig, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                + "sasl.jaas.config=" + client("admin").get(SaslConfigs.SASL_JAAS_CONFIG) + "\n");
        String bootstrap = "127.0.0.1:" + saslPort;
        ExternalCommand.Result added = KafkaTool.run("org.apache.kafka.tools.AclCommand", "--bootstrap-server",
                bootstrap, "--command-config", adminConfig.toString(), "--add", "--allow-principal", "User:carol",
                "--operation", "Read", "--operation", "Describe", "--topic", "tool-", "--resource-pattern-type",
                "prefixed");
        assertThat(added.exitCode()).as(added.output()).isZero();
        ExternalCommand.Result listed = KafkaTool.run("org.apache.kafka.tools.AclCommand", "--bootstrap-server",
                bootstrap, "--command-config", adminConfig.toString(), "--list", "--topic", "tool-",
                "--resource-pattern-type", "prefixed");
        assertThat(listed.exitCode()).as(listed.output()).isZero();
        assertThat(listed.output()).contains("ResourcePattern(resourceType=TOPIC, name=tool-, patternType=PREFIXED)")
                .contains("(principal=User:carol, host=*, operation=READ, permissionType=ALLOW)")
                .contains("(principal=User:carol, host=*, operation=DESCRIBE, permissionType=ALLOW)");
        ExternalCommand.Result removed = KafkaTool.run("org.apache.kafka.tools.AclCommand", "--bootstrap-server",
                bootstrap, "--command-config", adminConfig.toString(), "--remove", "--force", "--allow-principal",
                "User:carol", "--operation", "Read", "--topic", "tool-", "--resource-pattern-type", "prefixed");
        assertThat(removed.exitCode()).as(removed.output()).isZero();
        try (Admin admin = Admin.create(client("admin"))) {
            assertThat(admin.describeAcls(new AclBindingFilter(new ResourcePattern(ResourceType.TOPIC, "tool-",
                            PatternType.PREFIXED).toFilter(), AccessControlEntryFilter.ANY)).values()
                    .get(30, TimeUnit.SECONDS))
                    .extracting(binding -> binding.entry().operation()).containsExactly(AclOperation.DESCRIBE);
        }
    }

    @Test
    void aUserWithoutTheAclIsRefusedAndChangesNothingWithItSucceeds() throws Exception {
        try (Admin alice = Admin.create(client("alice"))) {
            // Topics alice may not describe are hidden.
            assertThat(alice.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain("orders", "secret");
            assertThat(rootOf(catchThrowable(() -> alice.createTopics(List.of(new NewTopic("alice-new", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS)))).isInstanceOf(TopicAuthorizationException.class);
            assertThat(rootOf(catchThrowable(() -> alice.deleteTopics(List.of("secret")).all()
                    .get(30, TimeUnit.SECONDS)))).isInstanceOf(TopicAuthorizationException.class);
            assertThat(rootOf(catchThrowable(() -> alice.createAcls(List.of(new AclBinding(new ResourcePattern(
                    ResourceType.TOPIC, "*", PatternType.LITERAL), new AccessControlEntry("User:alice", "*",
                    AclOperation.ALL, AclPermissionType.ALLOW)))).all().get(30, TimeUnit.SECONDS))))
                    .isInstanceOf(ClusterAuthorizationException.class);
            assertThat(rootOf(catchThrowable(() -> alice.describeConfigs(List.of(new ConfigResource(
                    ConfigResource.Type.TOPIC, "orders"))).all().get(30, TimeUnit.SECONDS))))
                    .isInstanceOf(TopicAuthorizationException.class);
            assertThat(rootOf(catchThrowable(() -> alice.describeConfigs(List.of(new ConfigResource(
                    ConfigResource.Type.BROKER, "1"))).all().get(30, TimeUnit.SECONDS))))
                    .isInstanceOf(ClusterAuthorizationException.class);
            assertThat(rootOf(catchThrowable(() -> alice.incrementalAlterConfigs(Map.of(new ConfigResource(
                    ConfigResource.Type.TOPIC, "orders"), List.of(new AlterConfigOp(new ConfigEntry(
                    "retention.ms", "1000"), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS))))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        try (Admin admin = Admin.create(client("admin"))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("orders", "secret")
                    .doesNotContain("alice-new");
        }

        long before = endOffset("orders");
        Map<String, Object> producerSettings = new HashMap<>(client("alice"));
        producerSettings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10000);
        producerSettings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings, new StringSerializer(),
                new StringSerializer())) {
            Throwable refused = catchThrowable(() -> producer.send(new ProducerRecord<>("orders", 0, "k", "v"))
                    .get(30, TimeUnit.SECONDS));
            assertThat(rootOf(refused)).isInstanceOf(TopicAuthorizationException.class);
        }
        assertThat(endOffset("orders")).isEqualTo(before);

        allow(ResourceType.TOPIC, "ord", PatternType.PREFIXED, AclOperation.WRITE);
        producerSettings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("orders", 0, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
            // WRITE on orders is not WRITE on secret.
            assertThat(rootOf(catchThrowable(() -> producer.send(new ProducerRecord<>("secret", 0, "k", "v"))
                    .get(30, TimeUnit.SECONDS)))).isInstanceOf(TopicAuthorizationException.class);
        }
        assertThat(endOffset("orders")).isEqualTo(before + 10);
        assertThat(endOffset("secret")).isZero();

        Map<String, Object> transactional = new HashMap<>(producerSettings);
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "alice-txn");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(transactional, new StringSerializer(),
                new StringSerializer())) {
            assertThat(rootOf(catchThrowable(producer::initTransactions)))
                    .isInstanceOf(TransactionalIdAuthorizationException.class);
        }

        Map<String, Object> consumerSettings = new HashMap<>(client("alice"));
        consumerSettings.put(ConsumerConfig.GROUP_ID_CONFIG, "alice-group");
        consumerSettings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerSettings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("orders"));
            assertThat(rootOf(catchThrowable(() -> consumer.poll(Duration.ofSeconds(10)))))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
        allow(ResourceType.GROUP, "alice-group", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("orders", 0)));
            assertThat(rootOf(catchThrowable(() -> consumer.poll(Duration.ofSeconds(10)))))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        allow(ResourceType.TOPIC, "orders", PatternType.LITERAL, AclOperation.READ);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition orders = new TopicPartition("orders", 0);
            consumer.assign(List.of(orders));
            int read = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (read < before + 10 && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                read += records.count();
            }
            assertThat(read).isEqualTo(before + 10);
            consumer.commitSync(Map.of(orders, new OffsetAndMetadata(read)));
            assertThat(consumer.committed(Set.of(orders)).get(orders).offset()).isEqualTo(read);
        }
        try (Admin alice = Admin.create(client("alice"))) {
            assertThat(alice.listTopics().names().get(30, TimeUnit.SECONDS)).contains("orders").doesNotContain("secret");
        }
    }

    @Test
    void aclsOutliveARestart() throws Exception {
        allow(ResourceType.TOPIC, "kept", PatternType.LITERAL, AclOperation.DESCRIBE);
        broker.stop();
        broker = startBroker();
        try (Admin admin = Admin.create(client("admin"))) {
            assertThat(admin.describeAcls(new AclBindingFilter(new ResourcePattern(ResourceType.TOPIC, "kept",
                            PatternType.LITERAL).toFilter(), AccessControlEntryFilter.ANY)).values()
                    .get(30, TimeUnit.SECONDS)).hasSize(1);
        }
    }

    @Test
    void withoutAnAuthorizerTheAclApisAreDisabled() throws Exception {
        try (SpoolProcess plain = SpoolProcess.startIn(dir.resolve("plain"));
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, plain.bootstrap()))) {
            assertThat(rootOf(catchThrowable(() -> admin.describeAcls(AclBindingFilter.ANY).values()
                    .get(30, TimeUnit.SECONDS)))).isInstanceOf(SecurityDisabledException.class);
        }
    }
}
