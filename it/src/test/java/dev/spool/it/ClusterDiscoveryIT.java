package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The three clients of docs/protocol.md connect to a broker started with bin/spool and see it. */
class ClusterDiscoveryIT {

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();

    private static Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SPOOL.process().bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
    }

    @Test
    void javaAdminDescribesTheCluster() throws Exception {
        try (Admin admin = admin()) {
            DescribeClusterResult cluster = admin.describeCluster();
            Collection<Node> nodes = cluster.nodes().get(20, TimeUnit.SECONDS);
            assertThat(nodes).singleElement().satisfies(node -> {
                assertThat(node.id()).isEqualTo(1);
                assertThat(node.host()).isEqualTo("127.0.0.1");
                assertThat(node.port()).isEqualTo(SPOOL.process().port());
            });
            assertThat(cluster.controller().get(20, TimeUnit.SECONDS).id()).isEqualTo(1);
            String clusterId = cluster.clusterId().get(20, TimeUnit.SECONDS);
            assertThat(clusterId).isNotBlank();
            assertThat(SPOOL.process().output()).anyMatch(line -> line.contains("cluster " + clusterId));
        }
    }

    @Test
    void javaAdminListsTopics() throws Exception {
        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get(20, TimeUnit.SECONDS)).isEmpty();
        }
    }

    @Test
    void kcatListsTheBroker() throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot(), 60,
                "kcat", "-L", "-b", SPOOL.process().bootstrap(), "-m", "20");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains("1 brokers:")
                .contains("broker 1 at 127.0.0.1:" + SPOOL.process().port())
                .contains("0 topics:");
    }

    @Test
    void kafkajsAdminConnectsAndListsTopics() throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 60,
                "node", "list-topics.js", SPOOL.process().bootstrap());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains("\"topics\":[]")
                .contains("\"nodeId\":1")
                .contains("\"port\":" + SPOOL.process().port())
                .contains("\"controller\":1");
    }
}
