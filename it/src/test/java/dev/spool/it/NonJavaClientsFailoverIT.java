package dev.spool.it;

import static dev.spool.it.ReplicatedTopics.admin;
import static dev.spool.it.ReplicatedTopics.ids;
import static dev.spool.it.ReplicatedTopics.partition;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * librdkafka (kcat) and kafkajs through the SIGKILL of a partition's leader on a three-node cluster: an idempotent
 * kafkajs producer (acks=-1) goes on through the election, and a kcat consumer started before the kill reads every
 * acknowledged record, once, from the new leader.
 */
class NonJavaClientsFailoverIT {

    private static final String TOPIC = "failover";
    private static final int RECORDS = 300;

    @Test
    void kafkajsProducesAndKcatConsumesThroughTheLossOfTheLeader() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500", "auto.leader.rebalance.enable=false");
             Admin admin = admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
            MetadataQuorumTool.awaitTrue(() -> ids(partition(admin, TOPIC, 0).isr()).size() == 3, "all in sync");
            int leader = partition(admin, TOPIC, 0).leader().id();

            Lines consumed = Lines.of(new ProcessBuilder("kcat", "-C", "-b", cluster.bootstrap(), "-t", TOPIC,
                    "-o", "beginning", "-c", String.valueOf(RECORDS), "-q", "-f", "%s\\n"));
            Lines produced = Lines.of(new ProcessBuilder("node", "produce-one-by-one.js", cluster.bootstrap(), TOPIC,
                    String.valueOf(RECORDS)).directory(SpoolProcess.repositoryRoot().resolve("it/js").toFile()));
            try {
                MetadataQuorumTool.awaitTrue(() -> produced.matching("acked ").size() >= RECORDS / 3,
                        "a third acknowledged before the kill");
                cluster.kill(leader);
                assertThat(produced.process().waitFor(120, TimeUnit.SECONDS)).as("the producer finished").isTrue();
                assertThat(produced.process().exitValue()).as(produced.all().toString()).isZero();
                assertThat(consumed.process().waitFor(60, TimeUnit.SECONDS))
                        .as("kcat read them all; it has " + consumed.all().size()).isTrue();
            } finally {
                produced.stop();
                consumed.stop();
            }
            List<String> acknowledged = produced.matching("acked ").stream()
                    .map(line -> line.substring("acked ".length())).toList();
            assertThat(acknowledged).hasSize(RECORDS);
            List<String> read = consumed.matching("js-");
            assertThat(read).as("every acknowledged record, once").hasSize(RECORDS)
                    .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(acknowledged);
            assertThat(partition(admin, TOPIC, 0).leader().id()).as("another broker leads").isNotEqualTo(leader);
        }
    }

    /** A process whose output lines are collected as they come. */
    private record Lines(Process process, List<String> all) {

        static Lines of(ProcessBuilder builder) throws IOException {
            Process process = builder.redirectErrorStream(true).start();
            List<String> lines = Collections.synchronizedList(new ArrayList<>());
            Thread pump = new Thread(() -> {
                try (BufferedReader reader = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    reader.lines().forEach(lines::add);
                } catch (IOException e) {
                    lines.add("output failed: " + e);
                }
            });
            pump.setDaemon(true);
            pump.start();
            return new Lines(process, lines);
        }

        List<String> matching(String prefix) {
            synchronized (all) {
                return all.stream().filter(line -> line.startsWith(prefix)).toList();
            }
        }

        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
