package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.quorum.QuorumBootstrap;
import dev.spool.broker.quorum.QuorumVoter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSettingsTest {

    private static final String THREE_VOTERS = "1@a:9093,2@b:9093,3@c:9093";

    @Test
    void kafkasSingleNodeKraftSettingsKeepTheLocalMetadataLog() {
        BrokerConfig single = new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "1",
                "controller.quorum.voters", "1@localhost:9093"));
        assertThat(single.cluster().isCluster()).isFalse();
        assertThat(new BrokerConfig(Map.of("process.roles", " controller , broker", "node.id", "1",
                "controller.quorum.bootstrap.servers", "localhost:9093")).cluster().isCluster()).isFalse();
        assertThat(new BrokerConfig(Map.of()).cluster().isCluster()).isFalse();
    }

    @Test
    void severalVotersMakeACombinedNodeOfARaftCluster() {
        ClusterSettings cluster = new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "2",
                "controller.quorum.voters", THREE_VOTERS, "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg")).cluster();
        assertThat(cluster.isCluster()).isTrue();
        assertThat(cluster.voters()).hasSize(3);
        assertThat(cluster.voters()).contains(new QuorumVoter(3, "c", 9093));
        assertThat(cluster.raftPortOffset()).as("Raft listens one port above each controller listener").isEqualTo(1);
        assertThat(cluster.dynamicQuorum()).isFalse();
        assertThat(cluster.isControllerListener("CONTROLLER")).isTrue();
        assertThat(cluster.isControllerListener("PLAINTEXT")).isFalse();
        assertThat(cluster.sessionTimeoutMs()).isEqualTo(9000);
        assertThat(cluster.heartbeatIntervalMs()).isEqualTo(2000);
    }

    @Test
    void aBrokerOnlyNodeFetchesFromTheVotersOrTheBootstrapController() {
        ClusterSettings byVoters = new BrokerConfig(Map.of("process.roles", "broker", "node.id", "4",
                "controller.quorum.voters", THREE_VOTERS, "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg")).cluster();
        assertThat(byVoters.isCluster()).isTrue();
        assertThat(byVoters.isVoter()).isFalse();
        assertThat(byVoters.controllerBootstrap()).hasSize(3);
        ClusterSettings byBootstrap = new BrokerConfig(Map.of("process.roles", "broker", "node.id", "4",
                "controller.quorum.bootstrap.servers", "c:9093", "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg")).cluster();
        assertThat(byBootstrap.isVoter()).isFalse();
        assertThat(byBootstrap.controllerBootstrap()).containsExactly(new QuorumVoter(-1, "c", 9093));
        ClusterSettings bySeveral = new BrokerConfig(Map.of("process.roles", "broker", "node.id", "4",
                "controller.quorum.bootstrap.servers", "a:9093, b:9093,c:9093", "cluster.id",
                "MkU3OEVBNTcwNTJENDM2Qg")).cluster();
        assertThat(bySeveral.controllerBootstrap()).containsExactly(new QuorumVoter(-1, "a", 9093),
                new QuorumVoter(-1, "b", 9093), new QuorumVoter(-1, "c", 9093));
    }

    @Test
    void aControllerWithBootstrapServersOnlyIsAVoterOfADynamicQuorum(@TempDir Path dataDir) throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of("node.id", "2", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://:9093",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg", "log.dirs", dataDir.toString(),
                "controller.quorum.bootstrap.servers", "localhost:9093"));
        assertThat(new BrokerConfig(settings).cluster().isCluster())
                .as("Kafka's single-node default, not formatted for a quorum: one node").isFalse();
        new QuorumBootstrap(List.of()).writeTo(dataDir);
        ClusterSettings formatted = new BrokerConfig(settings).cluster();
        assertThat(formatted.dynamicQuorum()).isTrue();
        assertThat(formatted.isVoter()).isTrue();
        assertThat(formatted.isBroker()).isTrue();
        assertThat(formatted.controllerEndpoint()).as("a listener without a host is reached on localhost")
                .isEqualTo(new Endpoint("CONTROLLER", "localhost", 9093));
        settings.put("controller.quorum.bootstrap.servers", "a:9093,b:9093");
        settings.put("log.dirs", dataDir.resolve("unformatted").toString());
        assertThat(new BrokerConfig(settings).cluster().dynamicQuorum()).as("several bootstrap servers").isTrue();
        settings.put("process.roles", "controller");
        settings.put("listeners", "CONTROLLER://127.0.0.1:9093");
        settings.put("controller.quorum.bootstrap.servers", "127.0.0.1:9093");
        assertThat(new BrokerConfig(settings).cluster().dynamicQuorum()).as("a controller-only node").isTrue();
    }

    @Test
    void aControllerOnlyNodeIsAVoterButNoBroker() {
        ClusterSettings controller = new BrokerConfig(Map.of("process.roles", "controller", "node.id", "1",
                "controller.quorum.voters", "1@a:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "CONTROLLER://a:9093", "listener.security.protocol.map", "CONTROLLER:PLAINTEXT",
                "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg")).cluster();
        assertThat(controller.isCluster()).as("its brokers run elsewhere, even with one voter").isTrue();
        assertThat(controller.isVoter()).isTrue();
        assertThat(controller.isBroker()).isFalse();
        assertThat(controller.roles()).isEqualTo(ProcessRoles.CONTROLLER);
    }

    @Test
    void whatSpoolCannotRunStopsStartUpNamingTheSetting() {
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "broker")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("process.roles=broker needs the controllers");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "broker", "node.id", "2",
                "controller.quorum.voters", THREE_VOTERS, "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg")))
                .hasMessageStartingWith("controller.quorum.voters=" + THREE_VOTERS + " names this node (node.id=2)");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "broker",
                "controller.quorum.bootstrap.servers", "a:9093")))
                .hasMessageStartingWith("cluster.id must be set");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "controller,observer")))
                .hasMessageStartingWith("invalid value 'controller,observer' for process.roles");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("process.roles", "controller", "node.id", "1",
                "controller.listener.names", "CONTROLLER", "listeners", "CONTROLLER://a:9093",
                "listener.security.protocol.map", "CONTROLLER:PLAINTEXT", "controller.quorum.voters", "1@a:9093")))
                .as("a controller-only node has brokers elsewhere: a cluster, with its id")
                .hasMessageStartingWith("cluster.id must be set");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "4", "controller.quorum.voters", THREE_VOTERS)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("controller.quorum.voters=" + THREE_VOTERS + " does not name this node");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "1", "controller.quorum.voters", THREE_VOTERS)))
                .hasMessageStartingWith("controller.listener.names must name the controller's listener");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "1", "controller.quorum.voters", THREE_VOTERS,
                "controller.listener.names", "CONTROLLER")))
                .hasMessageStartingWith("controller.listener.names=CONTROLLER is not among listeners=");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("node.id", "1", "controller.quorum.voters", THREE_VOTERS,
                "controller.listener.names", "CONTROLLER", "listeners", "CONTROLLER://a:9093",
                "listener.security.protocol.map", "CONTROLLER:PLAINTEXT")))
                .hasMessageStartingWith("cluster.id must be set");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("controller.quorum.voters", "1@b")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("id@host:port");
        assertThatThrownBy(() -> new BrokerConfig(Map.of("controller.quorum.bootstrap.servers", "a:9093,b:9093")))
                .as("several bootstrap servers: a dynamic quorum's controller")
                .hasMessageStartingWith("controller.listener.names must name the controller's listener");
    }
}
