package dev.spool.it.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer group member on its own thread that processes records and commits synchronously after
 * each poll. It remembers, per partition, the highest offset it processed; a record further on than
 * that offset + 1 (the logs here have no gaps: no transactions, no compaction) means it skipped records
 * it had not processed, which is recorded as a problem. Reading again after a crash is allowed (the
 * commit may not have happened). Errors while the broker is down are expected: the member keeps
 * polling, and re-creates its consumer if it has to. Thread-safe.
 */
public final class CommittingConsumer implements AutoCloseable {

    private final String bootstrap;
    private final String topic;
    private final String group;
    private final Map<Integer, Long> processedUpTo = new ConcurrentHashMap<>();
    private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    public CommittingConsumer(String bootstrap, String topic, String group) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.group = group;
        this.thread = new Thread(this::run, "committing-consumer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private KafkaConsumer<String, String> newConsumer() {
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000, ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000),
                new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            }
        });
        return consumer;
    }

    private void run() {
        KafkaConsumer<String, String> consumer = newConsumer();
        try {
            while (running) {
                try {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    for (ConsumerRecord<String, String> record : records) {
                        Long upTo = processedUpTo.get(record.partition());
                        long expectedAtMost = upTo == null ? 0 : upTo + 1;
                        if (record.offset() > expectedAtMost) {
                            problems.add("skipped: partition " + record.partition() + " resumed at offset "
                                    + record.offset() + " but had processed only up to " + upTo);
                        }
                        processedUpTo.merge(record.partition(), record.offset(), Math::max);
                        processed.incrementAndGet();
                    }
                    if (!records.isEmpty()) {
                        consumer.commitSync(Duration.ofSeconds(10));
                    }
                } catch (org.apache.kafka.common.errors.WakeupException | org.apache.kafka.common.errors.InterruptException e) {
                    return;
                } catch (RuntimeException e) {
                    // The broker is down or restarting; a failed commit is read again, never skipped.
                    errors.incrementAndGet();
                    if (e instanceof org.apache.kafka.common.errors.FencedInstanceIdException
                            || e instanceof IllegalStateException) {
                        consumer.close(Duration.ZERO);
                        consumer = newConsumer();
                    }
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    public long processedCount() {
        return processed.get();
    }

    public long errorCount() {
        return errors.get();
    }

    /** The highest offset processed per partition. */
    public Map<Integer, Long> processedUpTo() {
        return Map.copyOf(processedUpTo);
    }

    public List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }
}
