package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.faults.UnsyncedTail;
import dev.spool.it.faults.UnsyncedTail.Damage;
import dev.spool.it.reliability.PartitionReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Power loss, simulated: records up to the recovery point (checkpointed, so fsynced) are followed by
 * records written after it that only the page cache held; the broker is killed and the unsynced part
 * of the segment and of its indexes is damaged as a power cut may leave it: cut mid-batch, zeroed, or
 * garbled. The next start must not crash, must log what it dropped, keep every synced record intact
 * and in order, keep whatever it keeps of the tail readable (CRC-checked by the Java consumer, no
 * duplicates, numbers in order), and take new records. {@code -Dpowerloss.seed=S} reproduces a run.
 */
class PowerLossIT {

    private static final String TOPIC = "durable";
    private static final int SYNCED = 2_000;
    private static final int UNSYNCED = 3_000;

    @Test
    void recoveryKeepsSyncedDataAndDropsOnlyTheDamagedTail() throws Exception {
        long seed = Long.getLong("powerloss.seed", System.nanoTime());
        Random random = new Random(seed);
        for (Damage damage : Damage.values()) {
            powerLoss(damage, random, seed);
        }
    }

    private static void powerLoss(Damage damage, Random random, long seed) throws Exception {
        int port = KillLoopIT.freePort();
        String listener = "listeners=PLAINTEXT://127.0.0.1:" + port;
        SpoolProcess spool = SpoolProcess.start(listener);
        try {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            produce(spool.bootstrap(), 0, SYNCED);
            spool.stop(); // a clean shutdown: flushed, recovery point checkpointed at the log end
            spool = SpoolProcess.startIn(spool.dataDir(), listener);
            produce(spool.bootstrap(), SYNCED, UNSYNCED);
            spool.kill();

            Path partitionDir = spool.dataDir().resolve(TOPIC + "-0");
            long recoveryPoint = recoveryPoint(spool.dataDir());
            assertThat(recoveryPoint).as("checkpointed recovery point").isEqualTo(SYNCED);
            Path segment = partitionDir.resolve("00000000000000000000.log");
            long unsyncedFrom = UnsyncedTail.positionOfFirstBatchFrom(segment, recoveryPoint);
            long size = Files.size(segment);
            assertThat(unsyncedFrom).isLessThan(size);
            String what = UnsyncedTail.damage(damage, random, segment, unsyncedFrom, size);
            for (String index : List.of("00000000000000000000.index", "00000000000000000000.timeindex")) {
                UnsyncedTail.garbleIndexTail(partitionDir.resolve(index), random);
            }

            spool = SpoolProcess.startIn(spool.dataDir(), listener);
            assertThat(spool.awaitOutput(line -> line.contains("Recovery of") && line.contains("truncating"), 10_000))
                    .as("recovery logs what it dropped after %s (seed %d)", what, seed).isTrue();
            List<Long> numbers = readAll(spool.bootstrap());
            assertThat(numbers.size()).as("records kept after %s", what).isGreaterThanOrEqualTo(SYNCED);
            for (int i = 0; i < numbers.size(); i++) {
                assertThat(numbers.get(i)).as("record at offset %d after %s (seed %d)", i, what, seed).isEqualTo(i);
            }
            assertThat(numbers.size()).as("the damaged tail is dropped").isLessThan(SYNCED + UNSYNCED);
            produce(spool.bootstrap(), numbers.size(), 10);
            assertThat(readAll(spool.bootstrap())).hasSize(numbers.size() + 10);
            System.out.printf("PowerLossIT: %s - kept %d of %d records (%d synced), recovery said: %s%n", what,
                    numbers.size(), SYNCED + UNSYNCED, SYNCED, spool.output().stream()
                            .filter(line -> line.contains("Recovery of")).findFirst().orElse(""));
        } finally {
            spool.close();
        }
    }

    private static long recoveryPoint(Path dataDir) throws IOException {
        Long point = UnsyncedTail.recoveryPoints(dataDir).get(TOPIC + "-0");
        if (point == null) {
            throw new AssertionError("no recovery point for " + TOPIC + "-0");
        }
        return point;
    }

    private static void produce(String bootstrap, long first, int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 2048),
                new StringSerializer(), new StringSerializer())) {
            List<java.util.concurrent.Future<?>> sends = new ArrayList<>();
            for (long n = first; n < first + count; n++) {
                sends.add(producer.send(new ProducerRecord<>(TOPIC, "value " + n + " " + "x".repeat(40), null)));
            }
            for (java.util.concurrent.Future<?> send : sends) {
                send.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static List<Long> readAll(String bootstrap) {
        List<Long> numbers = new ArrayList<>();
        for (ConsumerRecord<String, String> record : PartitionReader.readAll(bootstrap, TOPIC, 0)) {
            assertThat(record.offset()).isEqualTo(numbers.size());
            numbers.add(Long.parseLong(record.key().split(" ")[1]));
        }
        return numbers;
    }

}
