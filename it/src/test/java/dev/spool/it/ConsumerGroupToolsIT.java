package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Kafka 4.4's group tools against Spool, run as their main classes: kafka-consumer-groups (--list,
 * --describe with offsets, lag and members, --reset-offsets to earliest / an offset / a shift / a
 * datetime, --delete-offsets, --delete), kafka-console-consumer with a group, kafka-consumer-perf-test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsumerGroupToolsIT {

    private static final String GROUPS_TOOL = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";
    private static final String CONSOLE_CONSUMER = "org.apache.kafka.tools.consumer.ConsoleConsumer";
    private static final String PERF_TEST = "org.apache.kafka.tools.ConsumerPerformance";
    private static final String TOPIC = "tools";
    private static final String GROUP = "tools-java";

    private static SpoolProcess spool;
    private static Admin admin;
    /** First offset of the second batch in each partition: what --to-datetime between the batches gives. */
    private static final Map<Integer, Long> secondBatchStart = new HashMap<>();
    private static String betweenBatches;

    @BeforeAll
    static void start() throws Exception {
        spool = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
        admin = GroupClients.admin(spool.bootstrap());
        admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
        List<RecordMetadata> first = GroupClients.produce(spool.bootstrap(), TOPIC, "a", 20);
        Thread.sleep(50);
        betweenBatches = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC)
                .format(Instant.now());
        Thread.sleep(50);
        List<RecordMetadata> second = GroupClients.produce(spool.bootstrap(), TOPIC, "b", 20);
        for (RecordMetadata metadata : second) {
            secondBatchStart.merge(metadata.partition(), metadata.offset(), Math::min);
        }
        for (RecordMetadata metadata : first) {
            secondBatchStart.putIfAbsent(metadata.partition(), metadata.offset() + 1);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (spool != null) {
            spool.close();
        }
    }

    @Test
    @Order(1)
    void listAndDescribeShowALiveJavaConsumerWithItsOffsetsLagAndMember() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        int[] read = {0};
        Thread consumerThread = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = GroupClients.consumer(spool.bootstrap(), GROUP, "earliest")) {
                consumer.subscribe(List.of(TOPIC));
                while (!stop.get()) {
                    read[0] += consumer.poll(Duration.ofMillis(100)).count();
                    consumer.commitSync();
                }
            }
        });
        consumerThread.start();
        try {
            String describe = "";
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline) {
                describe = tool(GROUPS_TOOL, "--describe", "--group", GROUP);
                if (describe.contains(GROUP + "-client") && lagOf(describe).equals(List.of(0L, 0L))) {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(describe).contains(GROUP + "-client").contains("/127.0.0.1");
            assertThat(lagOf(describe)).containsExactly(0L, 0L);
            assertThat(tool(GROUPS_TOOL, "--list")).contains(GROUP);
            assertThat(tool(GROUPS_TOOL, "--describe", "--group", GROUP, "--members"))
                    .contains(GROUP + "-client").contains("#PARTITIONS");
            assertThat(tool(GROUPS_TOOL, "--describe", "--group", GROUP, "--state")).contains("Stable")
                    .contains("range");
        } finally {
            stop.set(true);
            consumerThread.join();
        }
        assertThat(read[0]).isEqualTo(40);
    }

    @Test
    @Order(2)
    void resetOffsetsMovesTheGroupOfAnInactiveConsumer() throws Exception {
        tool(GROUPS_TOOL, "--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest", "--execute");
        assertThat(GroupClients.committed(admin, GROUP, TOPIC)).containsOnly(Map.entry(0, 0L), Map.entry(1, 0L));

        tool(GROUPS_TOOL, "--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-offset", "5", "--execute");
        assertThat(GroupClients.committed(admin, GROUP, TOPIC)).containsOnly(Map.entry(0, 5L), Map.entry(1, 5L));

        tool(GROUPS_TOOL, "--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--shift-by", "-2", "--execute");
        assertThat(GroupClients.committed(admin, GROUP, TOPIC)).containsOnly(Map.entry(0, 3L), Map.entry(1, 3L));

        tool(GROUPS_TOOL, "--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-datetime", betweenBatches,
                "--execute");
        assertThat(GroupClients.committed(admin, GROUP, TOPIC)).isEqualTo(secondBatchStart);
    }

    @Test
    @Order(3)
    void deleteOffsetsAndThenTheGroup() throws Exception {
        String deleted = tool(GROUPS_TOOL, "--delete-offsets", "--group", GROUP, "--topic", TOPIC);
        assertThat(deleted).contains("Successful");
        assertThat(GroupClients.committed(admin, GROUP, TOPIC)).isEmpty();

        assertThat(tool(GROUPS_TOOL, "--delete", "--group", GROUP)).contains("successful");
        assertThat(tool(GROUPS_TOOL, "--list")).doesNotContain(GROUP);
    }

    @Test
    @Order(4)
    void theConsoleConsumerReadsFromTheBeginningWithAGroupAndCommits() throws Exception {
        String output = tool(CONSOLE_CONSUMER, "--bootstrap-server", spool.bootstrap(), "--topic", TOPIC,
                "--group", "console-group", "--from-beginning", "--max-messages", "40");
        assertThat(output.lines().filter(line -> line.matches("[ab]-\\d+"))).hasSize(40);
        assertThat(GroupClients.committed(admin, "console-group", TOPIC).values().stream().mapToLong(Long::longValue)
                .sum()).isEqualTo(40);
        assertThat(lagOf(tool(GROUPS_TOOL, "--describe", "--group", "console-group"))).containsExactly(0L, 0L);
    }

    @Test
    @Order(5)
    void theConsumerPerfTestConsumesEveryRecordWithAGroup() throws Exception {
        String output = tool(PERF_TEST, "--bootstrap-server", spool.bootstrap(), "--topic", TOPIC,
                "--num-records", "40", "--group", "perf-group", "--timeout", "30000");
        String result = output.lines().filter(line -> line.matches("^\\d{4}-.*")).findFirst().orElseThrow();
        // start, end, MB, MB/s, records, records/s, ...
        assertThat(result.split(",\\s*")[4]).isEqualTo("40");
    }

    @Test
    @Order(6)
    void theOffsetsTopicIsInternalCompactedAndHasFiftyPartitions() throws Exception {
        org.apache.kafka.clients.admin.TopicDescription offsets = admin.describeTopics(List.of("__consumer_offsets"))
                .allTopicNames().get().get("__consumer_offsets");
        org.apache.kafka.common.config.ConfigResource resource = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "__consumer_offsets");

        assertThat(offsets.isInternal()).isTrue();
        assertThat(offsets.partitions()).hasSize(50);
        assertThat(admin.describeConfigs(List.of(resource)).all().get().get(resource).get("cleanup.policy").value())
                .isEqualTo("compact");
        assertThat(admin.listTopics().names().get()).doesNotContain("__consumer_offsets");
    }

    /** Runs a Kafka tool against the broker (the groups tool gets --bootstrap-server here) and returns its output. */
    private static String tool(String mainClass, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>();
        if (mainClass.equals(GROUPS_TOOL)) {
            all.add("--bootstrap-server");
            all.add(spool.bootstrap());
        }
        all.addAll(List.of(args));
        ExternalCommand.Result result = KafkaTool.run(mainClass, all.toArray(String[]::new));
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output();
    }

    /** The LAG column of a --describe of {@link #TOPIC}'s two partitions, in partition order. */
    private static List<Long> lagOf(String describe) {
        return describe.lines().filter(line -> line.trim().split("\\s+").length >= 6
                        && line.trim().split("\\s+")[1].equals(TOPIC))
                .sorted()
                .map(line -> {
                    String lag = line.trim().split("\\s+")[5];
                    return lag.equals("-") ? -1L : Long.parseLong(lag);
                }).toList();
    }
}
