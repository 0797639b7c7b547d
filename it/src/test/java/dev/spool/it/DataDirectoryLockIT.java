package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.reliability.LogAudit;
import dev.spool.it.reliability.NumberedProducer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A second {@code bin/spool server} on the log.dirs of a running one exits with status 1 naming the
 * directory and its lock, and changes nothing on disk; the first keeps serving, and every record
 * acknowledged through it is read back.
 */
class DataDirectoryLockIT {

    private static final String TOPIC = "orders";
    private static final String TOPIC_AFTER = "orders-after";

    @Test
    void secondBrokerOnTheSameLogDirsExitsAndTheFirstKeepsServing() throws Exception {
        try (SpoolProcess first = SpoolProcess.start()) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", first.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1), new NewTopic(TOPIC_AFTER, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (NumberedProducer producer = new NumberedProducer(first.bootstrap(), TOPIC, 4)) {
                assertThat(producer.awaitProgress(300, Duration.ofSeconds(60))).isTrue();
                producer.close();
                Map<String, String> filesBefore = fileStates(first.dataDir());

                ExternalCommand.Result second = ExternalCommand.run(first.dataDir().getParent(), 120,
                        SpoolProcess.repositoryRoot().resolve("bin/spool").toString(), "server",
                        "--override", "listeners=PLAINTEXT://127.0.0.1:0", "--override", "log.dirs=" + first.dataDir());

                assertThat(second.exitCode()).as(second.output()).isEqualTo(1);
                assertThat(second.output()).contains("Data directory " + first.dataDir() + " is in use")
                        .contains(first.dataDir().resolve(".lock").toString())
                        .doesNotContain("started in").doesNotContain("Loaded");
                assertThat(fileStates(first.dataDir())).as("the second broker changed nothing on disk")
                        .isEqualTo(filesBefore);

                try (NumberedProducer more = new NumberedProducer(first.bootstrap(), TOPIC_AFTER, 4)) {
                    assertThat(more.awaitProgress(300, Duration.ofSeconds(60))).as("the first keeps serving").isTrue();
                    more.close();
                    assertThat(LogAudit.check(first.bootstrap(), TOPIC, 3, producer.acked()).problems()).isEmpty();
                    assertThat(LogAudit.check(first.bootstrap(), TOPIC_AFTER, 3, more.acked()).problems()).isEmpty();
                }
            }
        }
    }

    /** Every file under {@code dir} with its size and modification time. */
    private static Map<String, String> fileStates(Path dir) throws IOException {
        Map<String, String> states = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                states.put(dir.relativize(file).toString(),
                        Files.size(file) + " bytes, modified " + Files.getLastModifiedTime(file).toMillis());
            }
        }
        return states;
    }
}
