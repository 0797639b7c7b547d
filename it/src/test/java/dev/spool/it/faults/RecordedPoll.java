package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.EventType;
import dev.spool.it.history.LogPartition;
import dev.spool.it.history.Operation;
import dev.spool.it.history.ReadRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Stateless: one consumer poll recorded in the history (invoke, then ok with the records read, or info with the
 * error: a poll changes nothing but the consumer's position), and the consumer settings the workload's readers share.
 */
final class RecordedPoll {

    /** Short enough to notice a stop quickly, long enough not to spin. */
    private static final Duration POLL_WAIT = Duration.ofMillis(300);

    private RecordedPoll() {
    }

    /** What a poll returned: the records, or the error that ends this client instance (null while it lives). */
    record Outcome(ConsumerRecords<String, String> records, RuntimeException fatal) {
    }

    static Outcome poll(KafkaConsumer<String, String> consumer, ClientHistory client) {
        return poll(consumer, client, null);
    }

    /** A poll whose records feed transaction {@code txn} (null: none). */
    static Outcome poll(KafkaConsumer<String, String> consumer, ClientHistory client, String txn) {
        client.pollInvoked(txn);
        try {
            ConsumerRecords<String, String> records = consumer.poll(POLL_WAIT);
            List<ReadRecord> reads = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records) {
                reads.add(new ReadRecord(new LogPartition(record.topic(), record.partition()), record.offset(),
                        record.value()));
            }
            client.polled(txn, reads);
            return new Outcome(records, null);
        } catch (KafkaException | IllegalStateException error) {
            // A retriable error leaves the instance usable; anything else ends it.
            client.record(client.event(EventType.INFO, Operation.POLL).withTxn(txn).withError(String.valueOf(error)));
            return new Outcome(ConsumerRecords.empty(), error instanceof RetriableException ? null : error);
        }
    }

    /**
     * Per partition assigned, the consumer's position when it knows one without asking: the offset after the last
     * record it returned, or past a transaction marker or aborted records that no record returned stands for (the
     * last batch of a partition may be a marker, and a reader is at the end only past it).
     */
    static Map<Integer, Long> positions(KafkaConsumer<String, String> consumer) {
        Map<Integer, Long> positions = new TreeMap<>();
        for (TopicPartition partition : consumer.assignment()) {
            try {
                positions.put(partition.partition(), consumer.position(partition, Duration.ZERO));
            } catch (KafkaException | IllegalStateException unknown) {
                // Not known yet (being reset or looked up): nothing to report for it.
            }
        }
        return positions;
    }

    /**
     * Settings of a reader: from the earliest offset, read_committed (the checker's strict reading), no automatic
     * commits, and timeouts that let a poll or commit give up within seconds while a fault lasts.
     */
    static Map<String, Object> configuration(String bootstrap, String groupId) {
        Map<String, Object> configuration = new TreeMap<>();
        configuration.put("bootstrap.servers", bootstrap);
        configuration.put("auto.offset.reset", "earliest");
        configuration.put("isolation.level", "read_committed");
        configuration.put("enable.auto.commit", "false");
        configuration.put("request.timeout.ms", "10000");
        configuration.put("default.api.timeout.ms", "15000");
        configuration.put("reconnect.backoff.max.ms", "500");
        if (groupId != null) {
            configuration.put("group.id", groupId);
            configuration.put("session.timeout.ms", "10000");
            configuration.put("heartbeat.interval.ms", "1000");
            configuration.put("max.poll.interval.ms", "60000");
        }
        return configuration;
    }
}
