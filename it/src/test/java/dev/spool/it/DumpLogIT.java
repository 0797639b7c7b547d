package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/spool dump-log} on the segment a Java producer wrote through the broker: every record
 * appears with its offset, timestamp, key, value and header keys, every batch once, and both indexes check
 * out against the segment, while the broker runs (active segment, preallocated indexes) and after it stopped;
 * the batch and record lines are those Kafka 4.4's kafka-dump-log prints for the same segment.
 */
class DumpLogIT {

    private static final Pattern RECORD = Pattern.compile(
            "^\\| offset: (\\d+) CreateTime: (\\d+) keySize: \\d+ valueSize: \\d+ sequence: \\S+ headerKeys: \\[(.*)] "
                    + "key: (\\S+) payload: (\\S+)$");
    private static final int RECORDS = 300;

    @Test
    void dumpShowsWhatWasWrittenAndTheIndexesMatch() throws Exception {
        List<ProducerRecord<String, String>> written = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        try (SpoolProcess spool = SpoolProcess.start()) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", spool.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic("dumped", Optional.of(1), Optional.empty()))).all()
                        .get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", spool.bootstrap(), "linger.ms", 5, "batch.size", 2048,
                    "key.serializer", StringSerializer.class, "value.serializer", StringSerializer.class))) {
                List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = 0; i < RECORDS; i++) {
                    ProducerRecord<String, String> record = new ProducerRecord<>("dumped", null,
                            1_700_000_000_000L + i, "key-" + i, "value-" + i + "-" + "x".repeat(i % 50));
                    record.headers().add("trace", ("t" + i).getBytes(StandardCharsets.UTF_8));
                    written.add(record);
                    sent.add(producer.send(record));
                }
                for (var future : sent) {
                    offsets.add(future.get(30, TimeUnit.SECONDS).offset());
                }
            }
            Path partition = spool.dataDir().resolve("dumped-0");
            assertDumpMatches(partition, written, offsets);
            spool.stop();
            assertDumpMatches(partition, written, offsets);
            assertSameAsKafkasDumpTool(partition.resolve("00000000000000000000.log"));
        }
    }

    /** Kafka 4.4's kafka-dump-log prints the same lines for the segment (after its own "Dumping" line). */
    private static void assertSameAsKafkasDumpTool(Path segment) throws Exception {
        ExternalCommand.Result kafka = KafkaTool.run("org.apache.kafka.tools.DumpLogSegments", "--files",
                segment.toString(), "--deep-iteration", "--print-data-log");
        ExternalCommand.Result spool = ExternalCommand.run(segment.getParent(), 120,
                SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "dump-log", "--print-data-log",
                segment.toString());
        assertThat(kafka.exitCode()).as(kafka.output()).isZero();
        assertThat(dumpLines(spool.output())).isEqualTo(dumpLines(kafka.output())).hasSizeGreaterThan(RECORDS);
    }

    private static List<String> dumpLines(String output) {
        return output.lines().filter(line -> line.startsWith("baseOffset: ") || line.startsWith("| offset: ")
                || line.startsWith("Log starting offset: ")).toList();
    }

    private static void assertDumpMatches(Path partition, List<ProducerRecord<String, String>> written,
                                          List<Long> offsets) throws Exception {
        String segment = "00000000000000000000";
        ExternalCommand.Result dump = ExternalCommand.run(partition, 120,
                SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "dump-log", "--print-data-log",
                segment + ".log", segment + ".index", segment + ".timeindex");
        assertThat(dump.exitCode()).as(dump.output()).isZero();

        List<String> lines = dump.output().lines().toList();
        List<Matcher> records = lines.stream().map(RECORD::matcher).filter(Matcher::matches).toList();
        assertThat(records).hasSize(written.size());
        for (int i = 0; i < written.size(); i++) {
            Matcher record = records.get(i);
            ProducerRecord<String, String> sent = written.get(i);
            assertThat(Long.parseLong(record.group(1))).isEqualTo(offsets.get(i));
            assertThat(Long.parseLong(record.group(2))).isEqualTo(sent.timestamp());
            assertThat(record.group(3)).isEqualTo("trace");
            assertThat(record.group(4)).isEqualTo(sent.key());
            assertThat(record.group(5)).isEqualTo(sent.value());
        }
        long batches = lines.stream().filter(line -> line.startsWith("baseOffset: ")).count();
        assertThat(batches).isBetween(2L, (long) written.size());
        assertThat(lines.stream().filter(line -> line.startsWith("offset: "))).as("offset index entries").isNotEmpty();
        assertThat(lines.stream().filter(line -> line.startsWith("timestamp: "))).as("time index entries").isNotEmpty();
        assertThat(lines.stream().filter(line -> line.equals("Index verified against " + segment + ".log")))
                .hasSize(2);
    }
}
