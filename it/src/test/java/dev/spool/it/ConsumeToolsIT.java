package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reading with command-line tools against a broker started with bin/spool: kcat (librdkafka 2.0.2:
 * Fetch v11, ListOffsets v2, read_committed) from an offset and from the end, and Kafka 4.4's
 * kafka-console-consumer (assigned partition, no group) and kafka-get-offsets as Java main classes.
 */
class ConsumeToolsIT {

    private static final String CONSOLE_CONSUMER = "org.apache.kafka.tools.consumer.ConsoleConsumer";
    private static final String GET_OFFSETS = "org.apache.kafka.tools.GetOffsetShell";
    private static final long TIMEOUT_SECONDS = 60;

    private static SpoolProcess spool;

    @BeforeAll
    static void start() throws Exception {
        spool = SpoolProcess.start();
        ProduceIT.createTopic(spool.bootstrap(), "tools", 2, Map.of());
        try (KafkaProducer<String, String> producer = ProduceIT.producer(spool.bootstrap(), Map.of())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("tools", 1, 100_000L + i, "key-" + i, "value-" + i,
                        List.<Header>of(new RecordHeader("h", ("x" + i).getBytes(StandardCharsets.UTF_8)),
                                new RecordHeader("h", ("y" + i).getBytes(StandardCharsets.UTF_8)))));
            }
            producer.flush();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (spool != null) {
            spool.close();
        }
    }

    @Test
    void kcatConsumesFromAnOffsetToTheEnd() throws Exception {
        ExternalCommand.Result result = kcat("-C", "-t", "tools", "-p", "1", "-o", "5", "-e",
                "-f", "%o %k %s %h\\n");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(lines(result.output())).containsExactly("5 key-5 value-5 h=x5,h=y5", "6 key-6 value-6 h=x6,h=y6",
                "7 key-7 value-7 h=x7,h=y7", "8 key-8 value-8 h=x8,h=y8", "9 key-9 value-9 h=x9,h=y9");
    }

    @Test
    void kcatConsumesFromTheEndWhatIsProducedAfterItStarted() throws Exception {
        ProduceIT.createTopic(spool.bootstrap(), "tools-tail", 1, Map.of());
        try (KafkaProducer<String, String> producer = ProduceIT.producer(spool.bootstrap(), Map.of())) {
            producer.send(new ProducerRecord<>("tools-tail", 0, "old", "before")).get();
            CompletableFuture<ExternalCommand.Result> tail = CompletableFuture.supplyAsync(() -> {
                try {
                    return kcat("-C", "-t", "tools-tail", "-p", "0", "-o", "end", "-c", "2", "-f", "%o %s\\n");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(3000);
            producer.send(new ProducerRecord<>("tools-tail", 0, "new", "after-1")).get();
            producer.send(new ProducerRecord<>("tools-tail", 0, "new", "after-2")).get();

            ExternalCommand.Result result = tail.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(lines(result.output())).containsExactly("1 after-1", "2 after-2");
        }
    }

    @Test
    void consoleConsumerReadsAnAssignedPartitionFromAnOffset() throws Exception {
        ExternalCommand.Result result = KafkaTool.run(CONSOLE_CONSUMER, "--bootstrap-server", spool.bootstrap(),
                "--topic", "tools", "--partition", "1", "--offset", "3", "--max-messages", "4",
                "--formatter-property", "print.key=true", "--formatter-property", "print.offset=true",
                "--formatter-property", "print.headers=true", "--formatter-property", "print.timestamp=true");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("Processed a total of 4 messages");
        assertThat(lines(result.output()).stream().filter(line -> line.startsWith("CreateTime")).toList())
                .containsExactly(
                        "CreateTime:100003\tOffset:3\th:x3,h:y3\tkey-3\tvalue-3",
                        "CreateTime:100004\tOffset:4\th:x4,h:y4\tkey-4\tvalue-4",
                        "CreateTime:100005\tOffset:5\th:x5,h:y5\tkey-5\tvalue-5",
                        "CreateTime:100006\tOffset:6\th:x6,h:y6\tkey-6\tvalue-6");
    }

    @Test
    void getOffsetsAnswersEveryKindOfTime() throws Exception {
        assertThat(getOffsets("-1")).containsExactly("tools:0:0", "tools:1:10");
        assertThat(getOffsets("earliest")).containsExactly("tools:0:0", "tools:1:0");
        assertThat(getOffsets("max-timestamp")).contains("tools:1:9");
        assertThat(getOffsets("earliest-local")).containsExactly("tools:0:0", "tools:1:0");
        assertThat(getOffsets("100004")).containsExactly("tools:1:4");
    }

    private static List<String> getOffsets(String time) throws Exception {
        ExternalCommand.Result result = KafkaTool.run(GET_OFFSETS, "--bootstrap-server", spool.bootstrap(),
                "--topic", "tools", "--time", time);
        assertThat(result.exitCode()).as(result.output()).isZero();
        return lines(result.output()).stream().filter(line -> line.startsWith("tools:")).sorted().toList();
    }

    private static ExternalCommand.Result kcat(String... args) throws Exception {
        String[] command = new String[args.length + 3];
        command[0] = "kcat";
        command[1] = "-b";
        command[2] = spool.bootstrap();
        System.arraycopy(args, 0, command, 3, args.length);
        return ExternalCommand.run(SpoolProcess.repositoryRoot(), TIMEOUT_SECONDS, command);
    }

    private static List<String> lines(String output) {
        return output.lines().filter(line -> !line.isBlank() && !line.startsWith("%")).toList();
    }
}
