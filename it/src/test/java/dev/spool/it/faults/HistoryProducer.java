package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.HistoryWriter;
import dev.spool.it.history.LogPartition;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Thread-safe ({@link #stop} from any thread; sends from its own thread, endings from the producer's I/O thread): an
 * acks=all producer sending unique values ({@code name-n}) round-robin to each partition of a topic at a steady
 * rate, recording every send in the history. A send is recorded as invoked before {@code send()}, and as ok, fail or
 * info in its callback ({@link SendOutcomes}); a {@code send()} that throws never handed the record to the client, so
 * it failed. When the client instance dies (a {@code send()} that throws anything but a broker's answer), it is
 * closed and replaced under a new process name ({@code name-generation}), as the checker wants.
 */
final class HistoryProducer {

    /** At most this many sends unanswered, so a cluster that stalls slows the producer instead of filling memory. */
    private static final int MAX_UNANSWERED = 50;

    private final String name;
    private final boolean idempotent;
    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String topic;
    private final int partitions;
    private final long pauseBetweenSendsMs;
    private final Semaphore unanswered = new Semaphore(MAX_UNANSWERED);
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong generations = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    HistoryProducer(String name, boolean idempotent, Supplier<String> bootstrap, HistoryWriter history, String topic,
                    int partitions, int sendsPerSecond) {
        this.name = name;
        this.idempotent = idempotent;
        this.bootstrap = bootstrap;
        this.history = history;
        this.topic = topic;
        this.partitions = partitions;
        this.pauseBetweenSendsMs = 1_000L / sendsPerSecond;
        this.thread = new Thread(this::run, "history-producer-" + name);
    }

    void start() {
        thread.start();
    }

    long acknowledged() {
        return acknowledged.get();
    }

    /**
     * The client settings. Timeouts keep a run bounded: a send is answered within the delivery timeout (45 s, long
     * enough to ride out any one step of a schedule), the rest is Kafka's defaults (retries, backoff, 5 in flight).
     */
    private Map<String, Object> configuration() {
        Map<String, Object> configuration = settings(bootstrap.get());
        configuration.put("acks", "all");
        configuration.put("enable.idempotence", Boolean.toString(idempotent));
        configuration.put("max.in.flight.requests.per.connection", "5");
        return configuration;
    }

    /** What every producer of the workload is given: short request and blocking timeouts, quick reconnects. */
    static Map<String, Object> settings(String bootstrap) {
        Map<String, Object> configuration = new TreeMap<>();
        configuration.put("bootstrap.servers", bootstrap);
        configuration.put("linger.ms", "5");
        configuration.put("request.timeout.ms", "10000");
        configuration.put("delivery.timeout.ms", "45000");
        configuration.put("max.block.ms", "20000");
        configuration.put("reconnect.backoff.max.ms", "500");
        return configuration;
    }

    private void run() {
        long number = 0;
        while (running) {
            ClientHistory client = history.client(name + "-" + generations.incrementAndGet());
            Map<String, Object> configuration = configuration();
            KafkaProducer<String, String> producer = new KafkaProducer<>(configuration, new StringSerializer(),
                    new StringSerializer());
            client.opened(configuration);
            try {
                while (running) {
                    if (!unanswered.tryAcquire(200, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                    String value = name + "-" + number;
                    int partition = (int) (number % partitions);
                    number++;
                    if (!send(producer, client, partition, value)) {
                        break;
                    }
                    Thread.sleep(pauseBetweenSendsMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            } finally {
                // Waits for the sends in flight, each answered within the delivery timeout.
                producer.close(Duration.ofSeconds(60));
            }
        }
    }

    /** Sends one value; false when the client instance is dead and must be replaced. */
    private boolean send(KafkaProducer<String, String> producer, ClientHistory client, int partition, String value) {
        LogPartition logPartition = new LogPartition(topic, partition);
        client.sendInvoked(null, logPartition, value);
        try {
            producer.send(new ProducerRecord<>(topic, partition, null, value), (metadata, error) -> {
                SendOutcomes.recordEnding(client, logPartition, value, error == null ? metadata.offset() : -1, error);
                if (error == null) {
                    acknowledged.incrementAndGet();
                }
                unanswered.release();
            });
            return true;
        } catch (KafkaException | IllegalStateException error) {
            // send() threw: the record never reached the client's buffer. A broker's answer (an ApiException) leaves
            // the client usable; anything else (closed, or fatally failed idempotence state) means it is dead.
            client.sendFailed(null, logPartition, value, error);
            unanswered.release();
            return error instanceof ApiException;
        }
    }

    /** Stops sending and closes the client, once every send in flight is answered. */
    void stop() throws InterruptedException {
        running = false;
        WorkerThreads.awaitEnd(thread, 120, "producer " + name);
    }
}
