package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SingleNodeClusterTest {

    @Test
    void kafkasSingleNodeKraftSettingsStart() {
        assertThat(new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "1",
                "controller.quorum.voters", "1@localhost:9093")).nodeId()).isEqualTo(1);
        assertThat(new BrokerConfig(Map.of("process.roles", " controller , broker", "node.id", "1",
                "controller.quorum.bootstrap.servers", "localhost:9093")).nodeId()).isEqualTo(1);
    }

    @Test
    void settingsForSeveralNodesStopStartUpNamingTheSetting() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "broker")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("process.roles=broker is not supported");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "controller")))
                .hasMessageStartingWith("process.roles=controller is not supported");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "1",
                "controller.quorum.voters", "1@a:9093,2@b:9093,3@c:9093")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("controller.quorum.voters=1@a:9093,2@b:9093,3@c:9093 is not supported");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "1", "controller.quorum.voters", "2@b:9093")))
                .hasMessageContaining("the only voter of its quorum (controller.quorum.voters=1@host:port)");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("controller.quorum.voters", "1@b")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("id@host:port");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("controller.quorum.bootstrap.servers", "a:9093,b:9093")))
                .hasMessageStartingWith("controller.quorum.bootstrap.servers=a:9093,b:9093 is not supported");
    }
}
