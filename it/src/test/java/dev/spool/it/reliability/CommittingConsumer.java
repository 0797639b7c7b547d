package dev.spool.it.reliability;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer group member on its own thread that processes records and commits their offsets synchronously after
 * each poll; a commit that fails is carried into the next one. Everything it reads and every commit the coordinator
 * acknowledges go into a {@link GroupReadHistory}, which records a skipped record (the logs here have no gaps: no
 * transactions, no compaction), a record read again below an acknowledged commit, and a record read again with
 * another value as problems. Errors while a broker is down are expected: the member keeps polling, and re-creates its
 * consumer if it has to. Thread-safe.
 */
public final class CommittingConsumer implements AutoCloseable {

    private final String bootstrap;
    private final String topic;
    private final String group;
    private final GroupReadHistory history = new GroupReadHistory();
    /**
     * Offsets processed but not yet acknowledged as committed: a failed commit is tried again with the next one.
     * Owned by the member's thread (the rebalance listener runs inside its poll).
     */
    private final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();
    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException lastError;

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
                // The last chance to commit what was processed; if it fails, whoever is assigned the partitions next
                // reads from the last commit again (counted as an error, not thrown out of the rebalance).
                try {
                    commitUncommitted(consumer, partitions);
                } catch (RuntimeException e) {
                    errors.incrementAndGet();
                } finally {
                    uncommitted.keySet().removeAll(partitions);
                }
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            }
        });
        return consumer;
    }

    /** Commits what was processed of {@code partitions} and not yet committed; throws if the commit fails. */
    private void commitUncommitted(KafkaConsumer<String, String> consumer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(uncommitted);
        offsets.keySet().retainAll(partitions);
        if (offsets.isEmpty()) {
            return;
        }
        consumer.commitSync(offsets, Duration.ofSeconds(10));
        Map<Integer, Long> acknowledged = new HashMap<>();
        offsets.forEach((partition, offset) -> acknowledged.put(partition.partition(), offset.offset()));
        history.onCommitAcknowledged(acknowledged);
        uncommitted.keySet().removeAll(offsets.keySet());
    }

    private void run() {
        KafkaConsumer<String, String> consumer = newConsumer();
        try {
            while (running) {
                try {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    for (ConsumerRecord<String, String> record : records) {
                        history.onRecord(record.partition(), record.offset(), record.value());
                        uncommitted.put(new TopicPartition(record.topic(), record.partition()),
                                new OffsetAndMetadata(record.offset() + 1));
                        processed.incrementAndGet();
                    }
                    commitUncommitted(consumer, uncommitted.keySet());
                } catch (org.apache.kafka.common.errors.WakeupException | org.apache.kafka.common.errors.InterruptException e) {
                    return;
                } catch (RuntimeException e) {
                    // A broker is down or restarting, or the group rebalancing: what was not committed is read again
                    // from the last commit once the partition is assigned anew, never skipped.
                    errors.incrementAndGet();
                    lastError = e;
                    if (e instanceof org.apache.kafka.common.errors.FencedInstanceIdException
                            || e instanceof IllegalStateException) {
                        consumer.close(Duration.ZERO);
                        consumer = newConsumer();
                        uncommitted.clear();
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

    /** What it has done and the last error it met, for a failure's message. */
    public String status() {
        RuntimeException error = lastError;
        return processed.get() + " processed, up to " + processedUpTo() + ", " + errors.get() + " errors"
                + (error == null ? "" : ", the last " + error);
    }

    /** The highest offset processed per partition. */
    public Map<Integer, Long> processedUpTo() {
        return history.processedUpTo();
    }

    public List<String> problems() {
        return history.problems();
    }

    /** Everything the member read and the commits acknowledged, so far. */
    public GroupReadHistory history() {
        return history;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }
}
