package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * librdkafka's balanced consumer ({@code kcat -G}) and a kafkajs consumer group: each joins, consumes
 * and commits, and its group shows in kafka-consumer-groups --describe; the kafkajs group resumes at
 * its committed offsets after a broker restart.
 */
class KcatKafkajsGroupIT {

    private static final String GROUPS_TOOL = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";

    @Test
    void kcatBalancedConsumerJoinsConsumesCommitsAndShowsInDescribe() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            admin.createTopics(List.of(new NewTopic("kcat-topic", 2, (short) 1))).all().get();
            GroupClients.produce(spool.bootstrap(), "kcat-topic", "k", 30);
            Process kcat = new ProcessBuilder("kcat", "-b", spool.bootstrap(), "-G", "kcat-group",
                    "-X", "auto.offset.reset=earliest", "-X", "auto.commit.interval.ms=100", "-q", "-u", "kcat-topic")
                    .redirectErrorStream(true).start();
            List<String> lines = Collections.synchronizedList(new ArrayList<>());
            Thread pump = new Thread(() -> {
                try (BufferedReader reader = new BufferedReader(
                        new InputStreamReader(kcat.getInputStream(), StandardCharsets.UTF_8))) {
                    reader.lines().forEach(lines::add);
                } catch (java.io.IOException e) {
                    lines.add("kcat output failed: " + e);
                }
            });
            pump.setDaemon(true);
            pump.start();
            try {
                String describe = "";
                long deadline = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < deadline) {
                    describe = KafkaTool.run(GROUPS_TOOL, "--bootstrap-server", spool.bootstrap(), "--describe",
                            "--group", "kcat-group").output();
                    if (GroupClients.committed(admin, "kcat-group", "kcat-topic").values().stream()
                            .mapToLong(Long::longValue).sum() == 30 && describe.contains("rdkafka")) {
                        break;
                    }
                    Thread.sleep(300);
                }
                assertThat(lines.stream().filter(line -> line.matches("k-\\d+"))).as(lines.toString()).hasSize(30);
                assertThat(describe).contains("kcat-group").contains("rdkafka");
                assertThat(GroupClients.committed(admin, "kcat-group", "kcat-topic").values().stream()
                        .mapToLong(Long::longValue).sum()).isEqualTo(30);
            } finally {
                kcat.destroy();
                kcat.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void kafkajsGroupConsumesCommitsAndResumesAfterARestart() throws Exception {
        SpoolProcess first = SpoolProcess.start("group.initial.rebalance.delay.ms=0");
        try (Admin admin = GroupClients.admin(first.bootstrap())) {
            admin.createTopics(List.of(new NewTopic("js-topic", 2, (short) 1))).all().get();
            GroupClients.produce(first.bootstrap(), "js-topic", "before", 20);
            String read = kafkajsConsume(first.bootstrap(), 20);
            assertThat(read).contains("\"value\":\"before-0\"").contains("\"value\":\"before-19\"");
            String describe = KafkaTool.run(GROUPS_TOOL, "--bootstrap-server", first.bootstrap(), "--describe",
                    "--group", "js-group").output();
            assertThat(describe).as(String.join("\n", first.output())).contains("js-group").contains("js-topic");
            assertThat(GroupClients.committed(admin, "js-group", "js-topic").values().stream()
                    .mapToLong(Long::longValue).sum()).isEqualTo(20);
        }
        first.stop();
        try (SpoolProcess second = SpoolProcess.startIn(first.dataDir(), "group.initial.rebalance.delay.ms=0")) {
            GroupClients.produce(second.bootstrap(), "js-topic", "after", 10);
            String read = kafkajsConsume(second.bootstrap(), 10);
            assertThat(read).doesNotContain("\"before-").contains("\"value\":\"after-0\"")
                    .contains("\"value\":\"after-9\"");
        }
    }

    private static String kafkajsConsume(String bootstrap, int count) throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(SpoolProcess.repositoryRoot().resolve("it/js"), 90,
                "node", "consume-group.js", bootstrap, "js-topic", "js-group", String.valueOf(count));
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output().lines().filter(line -> line.startsWith("[")).findFirst().orElseThrow();
    }
}
