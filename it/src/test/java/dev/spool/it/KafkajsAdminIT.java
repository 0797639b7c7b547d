package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafkajs 2.2.4's admin client (it/js/admin-configs.js): CreateTopics with a config, DescribeConfigs v2
 * with synonyms for a topic and the broker, the legacy AlterConfigs that replaces every override,
 * DeleteRecords (refused with POLICY_VIOLATION while the topic is compacted only, as by Kafka) and the topic
 * offsets (ListOffsets) it leaves.
 */
class KafkajsAdminIT {

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();

    @Test
    void kafkajsCreatesDescribesAltersAndTrimsATopic() throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                "node", "admin-configs.js", SPOOL.process().bootstrap(), "js-admin");
        assertThat(result.exitCode()).as(result.output()).isZero();
        String json = result.output().lines().filter(line -> line.startsWith("{\"created\"")).findFirst().orElseThrow();
        String before = json.substring(json.indexOf("\"before\""), json.indexOf("\"after\""));
        String after = json.substring(json.indexOf("\"after\""), json.indexOf("\"offsets\""));

        assertThat(json).startsWith("{\"created\":true");
        assertThat(before).contains("\"configName\":\"retention.ms\",\"configValue\":\"100000\",\"readOnly\":false,"
                + "\"isDefault\":false,\"configSource\":1")
                .contains("\"configName\":\"cleanup.policy\",\"configValue\":\"delete\",\"readOnly\":false,"
                        + "\"isDefault\":true,\"configSource\":5")
                .contains("\"configName\":\"node.id\",\"configValue\":\"1\",\"readOnly\":true");
        // The legacy AlterConfigs replaced retention.ms's override by the two it named.
        assertThat(after).contains("\"configName\":\"retention.ms\",\"configValue\":\"604800000\",\"readOnly\":false,"
                + "\"isDefault\":true,\"configSource\":5")
                .contains("\"configName\":\"cleanup.policy\",\"configValue\":\"compact\",\"readOnly\":false,"
                        + "\"isDefault\":false,\"configSource\":1")
                .contains("\"configName\":\"max.message.bytes\",\"configValue\":\"20000\"");
        assertThat(json).contains("\"offsets\":[{\"partition\":0,\"offset\":\"5\",\"high\":\"5\",\"low\":\"2\"},"
                + "{\"partition\":1,\"offset\":\"0\",\"high\":\"0\",\"low\":\"0\"}]");
        assertThat(json).endsWith("\"refused\":\"POLICY_VIOLATION\"}");
    }
}
