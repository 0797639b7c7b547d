package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Retention deletes old segments while a consumer reads them: the reader that falls behind the new log
 * start gets OFFSET_OUT_OF_RANGE and its {@code auto.offset.reset} applies; reading never changes the log.
 */
class RetentionWhileReadingIT {

    private static final long TIMEOUT_SECONDS = 30;
    private static final int RECORDS = 60;
    private static final int FRESH_RECORDS = 5;

    @Test
    void aReaderBehindTheNewLogStartIsResetToIt() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("log.retention.check.interval.ms=200")) {
            ProduceIT.createTopic(spool.bootstrap(), "aging", 1, Map.of("segment.bytes", "2048"));
            TopicPartition tp = new TopicPartition("aging", 0);
            long oldMs = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
            try (KafkaProducer<String, String> producer = ProduceIT.producer(spool.bootstrap(),
                    Map.of(ProducerConfig.LINGER_MS_CONFIG, 0))) {
                for (int i = 0; i < RECORDS; i++) {
                    long timestamp = i < RECORDS - FRESH_RECORDS ? oldMs + i : System.currentTimeMillis();
                    producer.send(new ProducerRecord<>("aging", 0, timestamp, "key-" + i, "v".repeat(200))).get();
                }
            }
            List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> reader = consumer(spool, "earliest");
                 KafkaConsumer<byte[], byte[]> strict = consumer(spool, "none");
                 KafkaConsumer<byte[], byte[]> check = consumer(spool, "none")) {
                reader.assign(List.of(tp));
                reader.seek(tp, 0);
                while (read.size() < 3) {
                    reader.poll(Duration.ofMillis(200)).forEach(read::add);
                }

                try (Admin admin = ProduceIT.admin(spool.bootstrap())) {
                    admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, "aging"),
                            List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "600000"),
                                    AlterConfigOp.OpType.SET)))).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
                long logStart = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                while (logStart < 10 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    logStart = check.beginningOffsets(List.of(tp)).get(tp);
                }
                assertThat(logStart).as("old segments deleted").isBetween(10L, (long) RECORDS - FRESH_RECORDS);

                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                while (read.get(read.size() - 1).offset() < RECORDS - 1 && System.nanoTime() < deadline) {
                    reader.poll(Duration.ofMillis(200)).forEach(read::add);
                }
                List<Long> offsets = read.stream().map(ConsumerRecord::offset).toList();
                int jump = offsets.indexOf(logStart);
                assertThat(jump).as("the reader was reset to the log start %d: %s", logStart, offsets).isPositive();
                assertThat(offsets.get(jump - 1)).as("it fell behind it").isLessThan(logStart - 1);
                for (int i = 1; i < offsets.size(); i++) {
                    if (i != jump) {
                        assertThat(offsets.get(i)).isEqualTo(offsets.get(i - 1) + 1);
                    }
                }
                assertThat(offsets.get(offsets.size() - 1)).isEqualTo(RECORDS - 1);

                strict.assign(List.of(tp));
                strict.seek(tp, 0);
                assertThatThrownBy(() -> {
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                    while (System.nanoTime() < until) {
                        strict.poll(Duration.ofMillis(200));
                    }
                }).isInstanceOf(OffsetOutOfRangeException.class);
                assertThat(check.endOffsets(List.of(tp)).get(tp)).as("reading never changes the log")
                        .isEqualTo(RECORDS);
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(SpoolProcess spool, String autoOffsetReset) {
        return ConsumeIT.consumer(spool.bootstrap(), Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1));
    }
}
