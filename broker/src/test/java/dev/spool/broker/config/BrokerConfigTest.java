package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerConfigTest {

    @Test
    void defaultsAreKafkas() {
        BrokerConfig config = new BrokerConfig(Map.of());

        assertThat(config.socketRequestMaxBytes()).isEqualTo(104857600);
        assertThat(config.listeners()).containsExactly(new Endpoint("PLAINTEXT", "127.0.0.1", 9092));
        assertThat(config.advertisedListeners()).isEmpty();
        assertThat(config.logDirs()).containsExactly(Path.of("./data"));
        assertThat(config.nodeId()).isEqualTo(1);
        assertThat(config.explicitValues()).isEmpty();
    }

    @Test
    void everySettingIsDeclaredOnceWithADoc() {
        for (ConfigKey<?> key : BrokerConfig.ALL) {
            assertThat(key.doc()).as("doc of %s", key.name()).isNotBlank();
        }
        assertThat(BrokerConfig.ALL).extracting(ConfigKey::name).doesNotHaveDuplicates();
    }

    @Test
    void logDirsOverridesLogDir() {
        BrokerConfig config = new BrokerConfig(Map.of("log.dir", "/var/one", "log.dirs", "/var/two, /var/three"));

        assertThat(config.logDirs()).containsExactly(Path.of("/var/two"), Path.of("/var/three"));
    }

    @Test
    void logDirIsUsedWhenLogDirsIsBlank() {
        BrokerConfig config = new BrokerConfig(Map.of("log.dir", "/var/one", "log.dirs", " "));

        assertThat(config.logDirs()).containsExactly(Path.of("/var/one"));
    }

    @Test
    void numbersAreParsedWithSurroundingSpaces() {
        BrokerConfig config = new BrokerConfig(Map.of("node.id", " 7 ", "socket.request.max.bytes", "1024"));

        assertThat(config.nodeId()).isEqualTo(7);
        assertThat(config.socketRequestMaxBytes()).isEqualTo(1024);
    }

    @Test
    void listenersAndAdvertisedListenersAreParsed() {
        BrokerConfig config = new BrokerConfig(Map.of(
                "listeners", "PLAINTEXT://0.0.0.0:9092,INTERNAL://localhost:0",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT",
                "advertised.listeners", "PLAINTEXT://broker1.example.com:9092"));

        assertThat(config.listeners()).containsExactly(new Endpoint("PLAINTEXT", "0.0.0.0", 9092),
                new Endpoint("INTERNAL", "localhost", 0));
        assertThat(config.advertisedListeners())
                .containsExactly(new Endpoint("PLAINTEXT", "broker1.example.com", 9092));
    }

    @Test
    void invalidNumberRaisesConfigExceptionNamingTheProperty() {
        assertRefused(Map.of("socket.request.max.bytes", "100MB"), "socket.request.max.bytes", "100MB");
        assertRefused(Map.of("node.id", ""), "node.id");
        assertRefused(Map.of("num.network.threads", "99999999999"), "num.network.threads");
    }

    @Test
    void outOfRangeNumberRaisesConfigExceptionNamingTheProperty() {
        assertRefused(Map.of("node.id", "-1"), "node.id");
        assertRefused(Map.of("socket.request.max.bytes", "0"), "socket.request.max.bytes");
    }

    @Test
    void invalidEndpointRaisesConfigExceptionNamingThePropertyAtConstruction() {
        assertRefused(Map.of("listeners", "localhost:9092"), "listeners");
        assertRefused(Map.of("listeners", " , "), "listeners");
        assertRefused(Map.of("advertised.listeners", "PLAINTEXT://broker1:http"), "advertised.listeners");
    }

    @Test
    void logDirsNamingNoDirectoryRaisesConfigException() {
        assertRefused(Map.of("log.dirs", ",", "log.dir", " "), "log.dirs");
    }

    @Test
    void aTlsSettingForOneListenerWinsThereAndSecretsAreNeverLogged() {
        BrokerConfig config = new BrokerConfig(Map.of("ssl.client.auth", "required",
                "listener.name.INTERNAL.ssl.client.auth", "none", "ssl.keystore.password", "s3cret",
                "listener.name.internal.ssl.key.password", "k3y", "listener.name.sasl_ssl.ssl.client.auth", "requested"));

        assertThat(TlsSettings.forListener(config, "INTERNAL", false).clientAuth())
                .as("the listener's own, whatever the case it was written in").isEqualTo("none");
        assertThat(TlsSettings.forListener(config, "SSL", false).clientAuth()).isEqualTo("required");
        assertThat(TlsSettings.forListener(config, "INTERNAL", false).keystorePassword()).isEqualTo("s3cret");
        assertThat(TlsSettings.forListener(config, "OTHER_SASL", true).clientAuth())
                .as("SASL_SSL: not the plain setting (KIP-684)").isEqualTo("none");
        assertThat(TlsSettings.forListener(config, "SASL_SSL", true).clientAuth()).isEqualTo("requested");
        assertThat(config.loggableValues()).containsEntry("ssl.keystore.password", "[hidden]")
                .containsEntry("listener.name.internal.ssl.key.password", "[hidden]")
                .containsEntry("ssl.client.auth", "required");
        assertThat(config.loggableValues().toString()).doesNotContain("s3cret", "k3y");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("listener.name.internal.ssl.client.auth", "maybe")))
                .hasMessageContaining("ssl.client.auth");
    }

    @Test
    void unknownKeysAreIgnored() {
        BrokerConfig config = new BrokerConfig(Map.of("some.future.setting", "not-a-number", "node.id", "3"));

        assertThat(config.nodeId()).isEqualTo(3);
        assertThat(config.explicitValues()).containsOnlyKeys("node.id");
    }

    @Test
    void logRetentionHoursGiveTopicsTheirRetentionMs() {
        BrokerConfig config = new BrokerConfig(Map.of("log.retention.hours", "1", "log.segment.bytes", "2048"));

        assertThat(config.logConfigDefaults())
                .containsEntry("retention.ms", "3600000")
                .containsEntry("segment.bytes", "2048");
    }

    @Test
    void logRetentionMsWinsOverMinutesAndHours() {
        BrokerConfig config = new BrokerConfig(Map.of("log.retention.hours", "1", "log.retention.minutes", "2",
                "log.retention.ms", "5000"));

        assertThat(config.logConfigDefaults()).containsEntry("retention.ms", "5000");
    }

    @Test
    void unsetLogSettingsLeaveKafkaDefaults() {
        assertThat(new BrokerConfig(Map.of()).logConfigDefaults()).isEmpty();
    }

    @Test
    void nonNumericRetentionHoursAreRefusedNamingSettingAndValue() {
        assertRefused(Map.of("log.retention.hours", "soon"), "log.retention.hours", "'soon'", "not a number");
    }

    @Test
    void invalidTopicDefaultsAreRefusedNamingSettingAndValue() {
        assertRefused(Map.of("log.segment.bytes", "10"), "log.segment.bytes", "'10'", "minimum");
        assertRefused(Map.of("log.message.timestamp.type", "Whenever"), "log.message.timestamp.type", "'Whenever'");
        assertRefused(Map.of("log.cleanup.policy", "shred"), "log.cleanup.policy", "shred");
        assertRefused(Map.of("log.retention.hours", "99999999999999999"), "log.retention.hours", "too large");
    }

    @Test
    void valuesOutsideTheirRuleAreRefusedNamingSettingValueAndRule() {
        assertRefused(Map.of("num.partitions", "0"), "num.partitions", "'0'", "at least 1");
        assertRefused(Map.of("default.replication.factor", "40000"), "default.replication.factor", "from 1 to 32767");
        assertRefused(Map.of("auto.create.topics.enable", "yes"), "auto.create.topics.enable", "'yes'");
    }

    @Test
    void metricsListenerIsOffByDefaultAndParsedAsHostAndPort() {
        assertThat(new BrokerConfig(Map.of()).metricsListener()).isNull();
        assertThat(new BrokerConfig(Map.of("metrics.listener", "127.0.0.1:9404")).metricsListener())
                .isEqualTo(new Endpoint("HTTP", "127.0.0.1", 9404));
        assertRefused(Map.of("metrics.listener", "127.0.0.1:x"), "metrics.listener");
        assertRefused(Map.of("metrics.listener", "http://127.0.0.1:9404"), "metrics.listener", "host:port",
                "'http://127.0.0.1:9404'");
    }

    @Test
    void zeroNetworkThreadsMeansOnePerCore() {
        assertThat(new BrokerConfig(Map.of()).numNetworkThreads())
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(new BrokerConfig(Map.of("num.network.threads", "3")).numNetworkThreads()).isEqualTo(3);
    }

    @Test
    void getReturnsTheTypedValueOfAnyKey() {
        BrokerConfig config = new BrokerConfig(Map.of("socket.request.max.bytes", "2048"));

        assertThat(config.get(BrokerConfig.SOCKET_REQUEST_MAX_BYTES)).isEqualTo(2048);
        assertThat(config.get(BrokerConfig.ADVERTISED_LISTENERS)).isNull();
        assertThat(config.get(BrokerConfig.LOG_DIR)).isEqualTo("./data");
    }

    /** Checks that the constructor, not a later getter, refuses the settings with a message naming them. */
    private static void assertRefused(Map<String, String> properties, String... named) {
        assertThatThrownBy(() -> new BrokerConfig(properties))
                .isInstanceOf(ConfigException.class)
                .hasMessageContainingAll(named);
    }

    @Test
    void theGroupProtocolsAreAListOfClassicAndConsumer() {
        assertThat(new BrokerConfig(Map.of()).get(BrokerConfig.GROUP_COORDINATOR_REBALANCE_PROTOCOLS))
                .as("Kafka's default").isEqualTo("classic,consumer");
        assertThat(new BrokerConfig(Map.of("group.coordinator.rebalance.protocols", "classic, CONSUMER"))
                .get(BrokerConfig.GROUP_COORDINATOR_REBALANCE_PROTOCOLS)).isEqualTo("classic, CONSUMER");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("group.coordinator.rebalance.protocols", "classic,streams")))
                .hasMessageContaining("group.coordinator.rebalance.protocols")
                .hasMessageContaining("'streams' is not one of classic, consumer");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("group.coordinator.rebalance.protocols", " ")))
                .hasMessageContaining("must name at least one of classic, consumer");
    }
}
