package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * An idempotent Java producer whose Produce responses are lost (a {@link CuttingProxy} drops them and
 * cuts the connection after the broker wrote the batch) retries the same batches, and the broker
 * writes each record exactly once, also when the retry reaches a restarted broker.
 */
class IdempotentRetryIT {

    private static final long TIMEOUT_SECONDS = 60;

    private static KafkaProducer<String, String> producer(CuttingProxy proxy) {
        return ProduceIT.producer("127.0.0.1:" + proxy.port(), Map.of(
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20,
                ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 20,
                ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ProducerConfig.BATCH_SIZE_CONFIG, 2048,
                ProducerConfig.LINGER_MS_CONFIG, 1));
    }

    private static SpoolProcess startBehind(CuttingProxy proxy, java.nio.file.Path dataDir) throws Exception {
        String advertised = "advertised.listeners=PLAINTEXT://127.0.0.1:" + proxy.port();
        SpoolProcess spool = dataDir == null ? SpoolProcess.start(advertised) : SpoolProcess.startIn(dataDir, advertised);
        proxy.setTarget("127.0.0.1", spool.port());
        return spool;
    }

    @Test
    void lostResponsesAreRetriedAndEveryRecordIsWrittenOnce() throws Exception {
        try (CuttingProxy proxy = new CuttingProxy(); SpoolProcess spool = startBehind(proxy, null)) {
            ProduceIT.createTopic(spool.bootstrap(), "retried", 1, Map.of());
            proxy.cutProduce(ordinal -> ordinal % 4 == 2 && ordinal < 80);
            int count = 3000;
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            try (KafkaProducer<String, String> producer = producer(proxy)) {
                for (int i = 0; i < count; i++) {
                    sent.add(producer.send(new ProducerRecord<>("retried", "value-" + i)));
                    if (i % 100 == 99) {
                        Thread.sleep(5);
                    }
                }
                producer.flush();
            }
            for (int i = 0; i < count; i++) {
                assertThat(sent.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset()).isEqualTo(i);
            }
            assertThat(proxy.cuts()).isGreaterThan(3);
            spool.stop();
            List<String> values = ProduceIT.values(PartitionFiles.records(spool.dataDir(), "retried", 0));
            assertThat(values).hasSize(count);
            for (int i = 0; i < count; i++) {
                assertThat(values.get(i)).isEqualTo("value-" + i);
            }
        }
    }

    /**
     * Several batches in flight when the first one's answer is lost: the broker wrote more than one of
     * them, stops cleanly, and the producer retries them all against the restarted broker. The retry of
     * the first is not of the producer's last batch: before the shutdown snapshot kept five batches per
     * producer, it was OUT_OF_ORDER_SEQUENCE and the producer's epoch bump wrote it a second time.
     */
    @Test
    void retriesOfSeveralInFlightBatchesAfterACleanShutdownAreAllDeduplicated() throws Exception {
        try (CuttingProxy proxy = new CuttingProxy()) {
            SpoolProcess first = startBehind(proxy, null);
            SpoolProcess second = null;
            try {
                ProduceIT.createTopic(first.bootstrap(), "inflight", 1, Map.of());
                String value = "x".repeat(900);
                int count = 40;
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                try (KafkaProducer<String, String> producer = producer(proxy)) {
                    producer.send(new ProducerRecord<>("inflight", "0-" + value)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    proxy.pauseAfterCut(true);
                    // The lost answer is held until two more requests are in flight: a fast broker's answer
                    // could otherwise come back before the producer had sent them (then one batch is written).
                    proxy.laterProduceRequestsBeforeCut(2);
                    proxy.cutProduce(ordinal -> ordinal == 2);
                    // Two records fill a 2 KiB batch: the producer pipelines up to five requests of one batch.
                    for (int i = 1; i < count; i++) {
                        sent.add(producer.send(new ProducerRecord<>("inflight", i + "-" + value)));
                    }
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                    while (proxy.cuts() == 0 && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertThat(proxy.cuts()).isEqualTo(1);
                    first.stop();
                    int writtenBeforeStop = PartitionFiles.records(first.dataDir(), "inflight", 0).size();
                    second = startBehind(proxy, first.dataDir());
                    proxy.resume();
                    for (int i = 1; i < count; i++) {
                        assertThat(sent.get(i - 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset()).isEqualTo(i);
                    }
                    // More than one batch after the first record was written before the stop (else this
                    // run only repeated the single-batch case above).
                    assertThat(writtenBeforeStop).as("records written before the stop").isGreaterThan(3);
                }
                second.stop();
                List<String> values = ProduceIT.values(PartitionFiles.records(first.dataDir(), "inflight", 0));
                assertThat(values).hasSize(count);
                for (int i = 0; i < count; i++) {
                    assertThat(values.get(i)).isEqualTo(i + "-" + value);
                }
            } finally {
                if (second != null) {
                    second.close();
                }
                first.close();
            }
        }
    }

    @ParameterizedTest(name = "after a {0}")
    @ValueSource(strings = {"clean shutdown", "crash"})
    void aRetryReachingARestartedBrokerIsStillDeduplicated(String stop) throws Exception {
        try (CuttingProxy proxy = new CuttingProxy()) {
            SpoolProcess first = startBehind(proxy, null);
            SpoolProcess second = null;
            try {
                ProduceIT.createTopic(first.bootstrap(), "restarted", 1, Map.of());
                try (KafkaProducer<String, String> producer = producer(proxy)) {
                    producer.send(new ProducerRecord<>("restarted", "r0")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    proxy.pauseAfterCut(true);
                    proxy.cutProduce(ordinal -> ordinal == 2);
                    Future<RecordMetadata> lost = producer.send(new ProducerRecord<>("restarted", "r1"));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
                    while (proxy.cuts() == 0 && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertThat(proxy.cuts()).isEqualTo(1);
                    if (stop.equals("crash")) {
                        first.kill();
                    } else {
                        first.stop();
                    }
                    second = startBehind(proxy, first.dataDir());
                    proxy.resume();
                    assertThat(lost.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).offset()).isEqualTo(1);
                    assertThat(producer.send(new ProducerRecord<>("restarted", "r2")).get(TIMEOUT_SECONDS,
                            TimeUnit.SECONDS).offset()).isEqualTo(2);
                }
                second.stop();
                assertThat(ProduceIT.values(PartitionFiles.records(first.dataDir(), "restarted", 0)))
                        .containsExactly("r0", "r1", "r2");
                // Either way the restart replays both batches: after a crash from the last roll snapshot, after a
                // clean shutdown from its snapshot at the oldest batch the producer's window holds.
                assertThat(second.output()).anyMatch(line -> line.contains("Loaded producer state")
                        && line.contains("2 batches replayed"));
            } finally {
                if (second != null) {
                    second.close();
                }
                first.close();
            }
        }
    }
}
