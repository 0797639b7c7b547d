package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.HistoryWriter;
import dev.spool.it.history.LogPartition;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Thread-safe ({@link #stop} from any thread; transactions from its own thread, send endings from the producer's
 * I/O thread): a transactional producer writing unique values ({@code name-n}), three per transaction, each to the
 * next partition, committing three transactions in four and aborting the fourth, recording every send and every
 * begin, commit and abort in the history. A commit or abort that throws ends as {@code info} (it may have happened),
 * and the client instance is closed and replaced under a new process name with the same transactional id: its
 * {@code initTransactions()} aborts whatever the old one left open. The read_committed readers of the workload must
 * then never read an aborted value (the checker's aborted-read) and never miss a committed one (lost-write).
 */
final class TransactionalWriter {

    private static final int VALUES_PER_TRANSACTION = 3;
    private static final int ABORT_EVERY = 4;

    private final String name;
    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String topic;
    private final int partitions;
    private final long pauseBetweenTransactionsMs;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong generations = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    TransactionalWriter(String name, Supplier<String> bootstrap, HistoryWriter history, String topic, int partitions,
                        int transactionsPerSecond) {
        this.name = name;
        this.bootstrap = bootstrap;
        this.history = history;
        this.topic = topic;
        this.partitions = partitions;
        this.pauseBetweenTransactionsMs = 1_000L / transactionsPerSecond;
        this.thread = new Thread(this::run, "transactional-writer-" + name);
    }

    void start() {
        thread.start();
    }

    /** Values of transactions whose commit was acknowledged. */
    long committed() {
        return committed.get();
    }

    /**
     * The client settings: a transaction left open by a dead instance is aborted by its successor's
     * initTransactions(), or by the coordinator within 10 s, so the readers' last stable offset moves on.
     */
    private Map<String, Object> configuration() {
        Map<String, Object> configuration = HistoryProducer.settings(bootstrap.get());
        configuration.put("transactional.id", "fault-" + name);
        configuration.put("transaction.timeout.ms", "10000");
        return configuration;
    }

    private void run() {
        long number = 0;
        long transactions = 0;
        while (running) {
            ClientHistory client = history.client(name + "-" + generations.incrementAndGet());
            Map<String, Object> configuration = configuration();
            KafkaProducer<String, String> producer = new KafkaProducer<>(configuration, new StringSerializer(),
                    new StringSerializer());
            client.opened(configuration);
            try {
                producer.initTransactions();
                while (running) {
                    String txn = name + "-t" + transactions;
                    boolean commit = transactions % ABORT_EVERY != ABORT_EVERY - 1;
                    transactions++;
                    long first = number;
                    // Past these values even when the end fails: the next instance must not send them again, or one
                    // value would sit at the offsets of an aborted transaction and of a committed one.
                    number += VALUES_PER_TRANSACTION;
                    if (!transaction(producer, client, txn, first, commit)) {
                        break;
                    }
                    Thread.sleep(pauseBetweenTransactionsMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            } catch (KafkaException e) {
                // initTransactions() gave up (a fault outlasted max.block.ms): a new instance tries again.
            } finally {
                producer.close(Duration.ofSeconds(60));
            }
        }
    }

    /** One transaction; false when it did not end cleanly and the client instance must be replaced. */
    private boolean transaction(KafkaProducer<String, String> producer, ClientHistory client, String txn,
                                long firstNumber, boolean commit) {
        RecordedTransaction.begin(producer, client, txn);
        for (int i = 0; i < VALUES_PER_TRANSACTION; i++) {
            long number = firstNumber + i;
            String value = name + "-" + number;
            LogPartition partition = new LogPartition(topic, (int) (number % partitions));
            client.sendInvoked(txn, partition, value);
            try {
                producer.send(new ProducerRecord<>(topic, partition.partition(), null, value), (metadata, error) ->
                        SendOutcomes.recordEnding(client, txn, partition, value,
                                error == null ? metadata.offset() : -1, error));
            } catch (KafkaException | IllegalStateException error) {
                client.sendFailed(txn, partition, value, error);
                RecordedTransaction.end(producer, client, txn, false, () -> { });
                return false;
            }
        }
        return RecordedTransaction.end(producer, client, txn, commit,
                () -> committed.addAndGet(VALUES_PER_TRANSACTION));
    }

    /** Stops after the transaction under way, and closes the client. */
    void stop() throws InterruptedException {
        running = false;
        WorkerThreads.awaitEnd(thread, 120, "transactional writer " + name);
    }
}
