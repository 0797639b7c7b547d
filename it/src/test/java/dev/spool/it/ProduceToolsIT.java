package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.record.Record;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's producing tools, run as their Java main classes: kafka-console-producer with keys and
 * headers, kafka-producer-perf-test. What they wrote is read back from the partition files.
 */
class ProduceToolsIT {

    @Test
    void consoleProducerWritesKeysAndHeaders() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            ProduceIT.createTopic(spool.bootstrap(), "console", 1, Map.of());
            // Kafka's defaults: headers, a tab, the key, a tab, the value; headers "k:v" separated by commas.
            String input = "h:a,h:b,other:c\tkey-1\tvalue-1\nx:y\tkey-2\tvalue-2\n";
            ExternalCommand.Result result = KafkaTool.runWithInput(input.getBytes(StandardCharsets.UTF_8),
                    "org.apache.kafka.tools.ConsoleProducer", "--bootstrap-server", spool.bootstrap(),
                    "--topic", "console", "--reader-property", "parse.key=true",
                    "--reader-property", "parse.headers=true");
            assertThat(result.exitCode()).as(result.output()).isZero();
            spool.stop();
            List<Record> records = PartitionFiles.records(spool.dataDir(), "console", 0);
            assertThat(ProduceIT.values(records)).containsExactly("value-1", "value-2");
            assertThat(new String(records.get(0).keyBytes(), StandardCharsets.UTF_8)).isEqualTo("key-1");
            assertThat(records.get(0).headers()).extracting(header -> header.key() + "="
                    + StandardCharsets.UTF_8.decode(header.value())).containsExactly("h=a", "h=b", "other=c");
            assertThat(records.get(1).headers()).extracting(header -> header.key()).containsExactly("x");
        }
    }

    @Test
    void producerPerfTestSendsEveryRecord() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            ProduceIT.createTopic(spool.bootstrap(), "perf", 2, Map.of());
            ExternalCommand.Result result = KafkaTool.run("org.apache.kafka.tools.ProducerPerformance",
                    "--topic", "perf", "--num-records", "20000", "--record-size", "100", "--throughput", "-1",
                    "--producer-props", "bootstrap.servers=" + spool.bootstrap(), "acks=all");
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("20000 records sent");
            spool.stop();
            int stored = PartitionFiles.records(spool.dataDir(), "perf", 0).size()
                    + PartitionFiles.records(spool.dataDir(), "perf", 1).size();
            assertThat(stored).isEqualTo(20000);
        }
    }
}
