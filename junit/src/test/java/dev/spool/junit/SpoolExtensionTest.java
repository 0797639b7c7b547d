package dev.spool.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SpoolExtensionTest {

    @RegisterExtension
    static final SpoolExtension classBroker = SpoolExtension.create().withSetting("num.partitions", "3");

    @RegisterExtension
    final SpoolExtension methodBroker = SpoolExtension.create();

    private static final Set<Path> METHOD_DATA_DIRS = ConcurrentHashMap.newKeySet();
    private static final Set<String> CLASS_BOOTSTRAPS = ConcurrentHashMap.newKeySet();

    @Test
    void staticFieldGivesOneBrokerForTheClassWithItsSettings() throws Exception {
        CLASS_BOOTSTRAPS.add(classBroker.bootstrapServers());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", classBroker.bootstrapServers()))) {
            admin.createTopics(java.util.List.of(new NewTopic("three", java.util.Optional.empty(),
                    java.util.Optional.empty()))).all().get();
            assertThat(admin.describeTopics(java.util.List.of("three")).allTopicNames().get().get("three")
                    .partitions()).hasSize(3);
            assertThat(admin.describeConfigs(java.util.List.of(new ConfigResource(ConfigResource.Type.BROKER, "1")))
                    .all().get().values().iterator().next().get("num.partitions").value()).isEqualTo("3");
        }
    }

    @Test
    void instanceFieldGivesEachMethodItsOwnBroker() throws Exception {
        CLASS_BOOTSTRAPS.add(classBroker.bootstrapServers());
        METHOD_DATA_DIRS.add(methodBroker.broker().dataDir());
        assertThat(methodBroker.bootstrapServers()).isNotEqualTo(classBroker.bootstrapServers());
        try (Socket socket = new Socket("127.0.0.1", methodBroker.broker().port())) {
            assertThat(socket.isConnected()).isTrue();
        }
    }

    @Test
    void anotherMethodGetsAFreshBroker() {
        CLASS_BOOTSTRAPS.add(classBroker.bootstrapServers());
        METHOD_DATA_DIRS.add(methodBroker.broker().dataDir());
    }

    @AfterAll
    static void methodBrokersWereStoppedAndTheirDataDeleted() {
        assertThat(CLASS_BOOTSTRAPS).hasSize(1);
        assertThat(METHOD_DATA_DIRS).hasSize(2).allSatisfy(dir -> assertThat(Files.exists(dir)).isFalse());
    }
}
