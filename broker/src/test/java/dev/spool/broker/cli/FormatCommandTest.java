package dev.spool.broker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.cluster.MetaProperties;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.quorum.QuorumBootstrap;
import dev.spool.broker.quorum.QuorumVoter;
import dev.spool.protocol.types.Uuid;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FormatCommandTest {

    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";

    @TempDir
    Path dir;

    private String[] controller(int nodeId, String... more) {
        return controllerOf(nodeId, CLUSTER_ID, more);
    }

    private String[] controllerOf(int nodeId, String clusterId, String... more) {
        List<String> args = new ArrayList<>(List.of("format", "--override", "process.roles=controller",
                "--override", "node.id=" + nodeId, "--override", "controller.listener.names=CONTROLLER",
                "--override", "listeners=CONTROLLER://127.0.0.1:1909" + nodeId,
                "--override", "listener.security.protocol.map=CONTROLLER:PLAINTEXT",
                "--override", "controller.quorum.bootstrap.servers=127.0.0.1:19091",
                "--override", "log.dirs=" + dir.resolve("node-" + nodeId), "--cluster-id", clusterId));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void standaloneMakesThisControllerTheQuorumsFirstVoterAndMarksTheDirectoryADynamicQuorums() throws Exception {
        ServerCommandTest.Result result = ServerCommandTest.run(controller(1, "--standalone"));
        assertThat(result.exitCode()).as(result.err()).isZero();
        Path logDir = dir.resolve("node-1");
        MetaProperties meta = MetaProperties.loadOrCreate(logDir, 1, CLUSTER_ID);
        List<QuorumVoter> voters = QuorumBootstrap.readFrom(logDir).initialVoters();
        assertThat(voters).containsExactly(new QuorumVoter(1, "127.0.0.1", 19091, Uuid.fromString(meta.directoryId())));
        assertThat(result.out()).contains("dynamic metadata voter directory").contains(meta.directoryId());
        BrokerConfig config = new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "1",
                "controller.listener.names", "CONTROLLER", "listeners", "PLAINTEXT://:0,CONTROLLER://127.0.0.1:19091",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT", "cluster.id",
                CLUSTER_ID, "controller.quorum.bootstrap.servers", "127.0.0.1:19091", "log.dirs", logDir.toString()));
        assertThat(config.cluster().dynamicQuorum()).as("one bootstrap server, but formatted for a quorum").isTrue();

        ServerCommandTest.Result again = ServerCommandTest.run(controller(1, "--standalone"));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("is already formatted").contains("--ignore-formatted");
        assertThat(ServerCommandTest.run(controller(1, "--standalone", "--ignore-formatted")).exitCode()).isZero();
        assertThat(MetaProperties.loadOrCreate(logDir, 1, CLUSTER_ID)).as("left as it was").isEqualTo(meta);
    }

    @Test
    void initialControllersGiveEachListedControllerItsDirectoryIdAndNoInitialControllersNone() throws Exception {
        Uuid two = Uuid.randomUuid();
        String list = "1@127.0.0.1:19091:" + Uuid.randomUuid() + ",2@127.0.0.1:19092:" + two;
        assertThat(ServerCommandTest.run(controller(2, "--initial-controllers", list)).exitCode()).isZero();
        assertThat(MetaProperties.loadOrCreate(dir.resolve("node-2"), 2, CLUSTER_ID).directoryId())
                .isEqualTo(two.toString());
        assertThat(QuorumBootstrap.readFrom(dir.resolve("node-2")).initialVoters()).hasSize(2);

        assertThat(ServerCommandTest.run(controller(3, "--no-initial-controllers")).exitCode()).isZero();
        assertThat(QuorumBootstrap.readFrom(dir.resolve("node-3")).initialVoters()).isEmpty();
    }

    @Test
    void whatCannotBeFormattedIsAUsageErrorNamingWhy() {
        ServerCommandTest.Result none = ServerCommandTest.run(controller(1));
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("you must specify one of the following: --standalone, --initial-controllers, "
                + "or --no-initial-controllers");
        ServerCommandTest.Result both = ServerCommandTest.run(controller(1, "--standalone", "--no-initial-controllers"));
        assertThat(both.exitCode()).isEqualTo(2);
        ServerCommandTest.Result withVoters = ServerCommandTest.run(controller(1, "--standalone", "--override",
                "controller.quorum.voters=1@127.0.0.1:19091"));
        assertThat(withVoters.exitCode()).isEqualTo(2);
        assertThat(withVoters.err()).contains("You cannot specify controller.quorum.voters");
        ServerCommandTest.Result badId = ServerCommandTest.run(controllerOf(1, "abc", "--standalone"));
        assertThat(badId.exitCode()).isEqualTo(2);
        assertThat(badId.err()).contains("is not a Kafka cluster id");
        assertThat(MetaProperties.existsIn(dir.resolve("node-1"))).as("nothing written").isFalse();
    }
}
