package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.EventType;
import dev.spool.it.history.HistoryWriter;
import dev.spool.it.history.LogPartition;
import dev.spool.it.history.Operation;
import dev.spool.it.history.PartitionOffset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Thread-safe ({@link #committed} and {@link #stop} from any thread; the loop on its own): issue 20's transactional
 * consume-transform-produce workload. A member of its own consumer group (read_committed) copies each record of the
 * input topic to the same partition of the output topic as {@code copy-<value>-in-<transaction>}, and commits the
 * group's offsets in the same transaction (sendOffsetsToTransaction); every fifth transaction it aborts on purpose
 * and goes back to the group's committed offsets. Its polls name the transaction they feed, so the checker's
 * exactly-once check sees each input record processed by exactly one committed transaction. A transaction that fails
 * ends as info (it may have committed), and the consumer and producer are replaced under a new process name: the new
 * producer's initTransactions() fences the old one and aborts what it left open, and the new consumer starts from the
 * group's committed offsets.
 */
final class TransactionalCopier {

    private static final String GROUP = "fault-copiers";
    private static final int ABORT_EVERY = 5;

    private final String name;
    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String input;
    private final String output;
    /** Per input partition, the offset the group committed with a transaction that committed. */
    private final Map<Integer, Long> committed = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    TransactionalCopier(String name, Supplier<String> bootstrap, HistoryWriter history, String input, String output) {
        this.name = name;
        this.bootstrap = bootstrap;
        this.history = history;
        this.input = input;
        this.output = output;
        this.thread = new Thread(this::run, "transactional-copier-" + name);
    }

    void start() {
        thread.start();
    }

    /** Per input partition, the group's offset as the last committed transaction left it. */
    Map<Integer, Long> committed() {
        return Map.copyOf(committed);
    }

    private void run() {
        long transactions = 0;
        while (running) {
            ClientHistory client = history.client(name + "-" + generations.incrementAndGet());
            Map<String, Object> consumerSettings = RecordedPoll.configuration(bootstrap.get(), GROUP);
            Map<String, Object> producerSettings = HistoryProducer.settings(bootstrap.get());
            producerSettings.put("transactional.id", "fault-" + name);
            producerSettings.put("transaction.timeout.ms", "10000");
            Map<String, Object> both = new TreeMap<>(producerSettings);
            both.putAll(consumerSettings); // the checker reads both: the group and the transactional id
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(),
                    new StringDeserializer());
            KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings, new StringSerializer(),
                    new StringSerializer());
            client.opened(both);
            try {
                producer.initTransactions();
                consumer.subscribe(List.of(input), new RebalanceRecorder(client));
                client.subscribed(List.of(input));
                while (running) {
                    String txn = name + "-t" + transactions;
                    RecordedPoll.Outcome polled = RecordedPoll.poll(consumer, client, txn);
                    if (polled.fatal() != null) {
                        break;
                    }
                    Map<TopicPartition, OffsetAndMetadata> moved = moved(consumer);
                    if (moved.isEmpty()) {
                        continue; // nothing read, no marker passed: the next poll feeds the same transaction
                    }
                    transactions++;
                    boolean commit = transactions % ABORT_EVERY != 0;
                    if (!copy(consumer, producer, client, txn, polled.records(), moved, commit)) {
                        break;
                    }
                    if (!commit) {
                        rewind(consumer, client);
                    }
                }
            } catch (KafkaException | IllegalStateException e) {
                // initTransactions() or the rewind gave up while a fault lasted: a new instance tries again.
            } finally {
                consumer.close(Duration.ofSeconds(5));
                producer.close(Duration.ofSeconds(60));
            }
        }
    }

    /**
     * The consumer's positions that moved past the group's last committed offsets: past the records the poll
     * returned, or past a transaction marker no record stands for (so that the group gets to the log end).
     */
    private Map<TopicPartition, OffsetAndMetadata> moved(KafkaConsumer<String, String> consumer) {
        Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
        RecordedPoll.positions(consumer).forEach((partition, position) -> {
            if (position > committed.getOrDefault(partition, 0L)) {
                moved.put(new TopicPartition(input, partition), new OffsetAndMetadata(position));
            }
        });
        return moved;
    }

    /**
     * One transaction copying {@code records} and committing the group's {@code offsets}; false when it did not end
     * cleanly and the instances must go.
     */
    private boolean copy(KafkaConsumer<String, String> consumer, KafkaProducer<String, String> producer,
                         ClientHistory client, String txn, ConsumerRecords<String, String> records,
                         Map<TopicPartition, OffsetAndMetadata> offsets, boolean commit) {
        try {
            RecordedTransaction.begin(producer, client, txn);
            for (ConsumerRecord<String, String> record : records) {
                LogPartition partition = new LogPartition(output, record.partition());
                // Unique to this attempt: a value sent again in a later transaction would sit at the offsets of an
                // aborted transaction and of a committed one, and the checker tells records apart by value.
                String value = "copy-" + record.value() + "-in-" + txn;
                client.sendInvoked(txn, partition, value);
                producer.send(new ProducerRecord<>(output, record.partition(), null, value), (metadata, error) ->
                        SendOutcomes.recordEnding(client, txn, partition, value,
                                error == null ? metadata.offset() : -1, error));
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
        } catch (KafkaException | IllegalStateException error) {
            client.transaction(Operation.TXN_ABORT, EventType.INFO, txn, error);
            return false;
        }
        return RecordedTransaction.end(producer, client, txn, commit, () -> offsets.forEach((partition, offset) ->
                committed.merge(partition.partition(), offset.offset(), Math::max)));
    }

    /** After an abort: back to the offsets the group committed (recorded as a seek, which the checker forgives). */
    private void rewind(KafkaConsumer<String, String> consumer, ClientHistory client) {
        Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(consumer.assignment());
        List<PartitionOffset> positions = new ArrayList<>();
        for (TopicPartition partition : consumer.assignment()) {
            OffsetAndMetadata offset = offsets.get(partition);
            long position = offset == null ? 0 : offset.offset();
            consumer.seek(partition, position);
            positions.add(new PartitionOffset(new LogPartition(partition.topic(), partition.partition()), position));
        }
        client.sought(positions);
    }

    /** Stops after the transaction under way, and closes the clients. */
    void stop() throws InterruptedException {
        running = false;
        WorkerThreads.awaitEnd(thread, 120, "transactional copier " + name);
    }
}
