package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.quorum.QuorumVoter;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
        assertThat(cluster.raftVoters()).containsExactly(new QuorumVoter(1, "a", 9094), new QuorumVoter(2, "b", 9094),
                new QuorumVoter(3, "c", 9094));
        assertThat(cluster.voter(3)).isEqualTo(new QuorumVoter(3, "c", 9093));
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
                .hasMessageStartingWith("controller.quorum.bootstrap.servers=a:9093,b:9093 is not supported on a "
                        + "controller");
    }
}
