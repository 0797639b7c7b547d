package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM under load: an idempotent producer is writing when the broker is stopped the way an
 * operator stops it. The broker exits promptly, says it stopped, leaves the clean-shutdown marker; the
 * next start loads the logs as a clean shutdown (no recovery scan, no truncation) and the producer
 * carries on: every acknowledged record is there exactly once, in per-key order.
 */
class GracefulShutdownIT {

    private static final String TOPIC = "orders";

    @Test
    void sigtermUnderLoadShutsDownCleanlyAndTheNextStartSkipsRecovery() throws Exception {
        int port = KillLoopIT.freePort();
        String listener = "listeners=PLAINTEXT://127.0.0.1:" + port;
        SpoolProcess spool = SpoolProcess.start(listener);
        try {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (NumberedProducer producer = new NumberedProducer(spool.bootstrap(), TOPIC, 4)) {
                assertThat(producer.awaitProgress(500, Duration.ofSeconds(60))).isTrue();

                long stopping = System.nanoTime();
                spool.stop();
                long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
                assertThat(spool.isAlive()).isFalse();
                assertThat(stopMs).as("SIGTERM to exit, ms").isLessThan(15_000);
                assertThat(spool.output()).anyMatch(line -> line.contains("Spool broker stopped"));
                assertThat(spool.output()).noneMatch(line -> line.contains(" ERROR "));
                assertThat(spool.dataDir().resolve(".kafka_cleanshutdown")).exists();

                List<String> before = spool.output();
                spool = SpoolProcess.startIn(spool.dataDir(), listener);
                assertThat(spool.output()).anyMatch(line -> line.contains("Loaded") && line.contains("(clean shutdown)"));
                assertThat(spool.output()).noneMatch(line -> line.contains("unclean") || line.contains("Recovery of")
                        || line.contains("Truncated"));
                assertThat(Files.exists(spool.dataDir().resolve(".kafka_cleanshutdown")))
                        .as("the marker is removed once the logs are open").isFalse();
                assertThat(producer.awaitProgress(500, Duration.ofSeconds(60))).as("the producer carries on").isTrue();
                producer.close();
                LogAudit.Result audit = LogAudit.check(spool.bootstrap(), TOPIC, 3, producer.acked());
                assertThat(audit.problems()).as("the log after the restart; the broker before and after said:\n%s\n%s",
                        String.join("\n", before), String.join("\n", spool.output())).isEmpty();
                System.out.printf("GracefulShutdownIT: SIGTERM to exit %d ms, %d acknowledged records, %d failed sends, "
                        + "%d in the log%n", stopMs, producer.ackedCount(), producer.failedCount(), audit.records());
            }
        } finally {
            spool.close();
        }
    }
}
