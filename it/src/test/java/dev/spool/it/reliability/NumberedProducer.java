package dev.spool.it.reliability;

import java.time.Duration;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An idempotent producer (acks=all) on its own thread writing numbered records per key: key
 * {@code key-i}, value {@code key-i:n} with n = 0, 1, 2... per key, the keys in turn. It keeps the
 * numbers the broker acknowledged; a send that fails (the broker was down longer than the delivery
 * timeout) is counted, and the producer carries on with the next number. It sends as fast as the broker takes them
 * (pausing 2 ms every 20 records) or at most {@code recordsPerSecond}. Thread-safe.
 */
public final class NumberedProducer implements AutoCloseable {

    /** The client id, which marks the producer's lines in the tests' client log. */
    public static final String CLIENT_ID = "numbered-producer";
    /** The client's own counts that tell a stalled producer's story. */
    private static final java.util.Set<String> WATCHED_METRICS = java.util.Set.of("record-send-total",
            "record-retry-total", "record-error-total", "requests-in-flight", "metadata-age", "buffer-available-bytes");

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final int keys;
    /** At most this many records a second; 0 for as fast as the broker takes them. */
    private final int recordsPerSecond;
    private final Map<String, NavigableSet<Long>> acked = new ConcurrentHashMap<>();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong ackedCount = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicReference<Exception> firstFailure =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;
    private boolean closed;

    public NumberedProducer(String bootstrap, String topic, int keys) {
        this(bootstrap, topic, keys, 0);
    }

    /** A producer sending at most {@code recordsPerSecond} (a modest load that a two-core CI machine keeps up with). */
    public NumberedProducer(String bootstrap, String topic, int keys, int recordsPerSecond) {
        this.topic = topic;
        this.keys = keys;
        this.recordsPerSecond = recordsPerSecond;
        this.producer = new KafkaProducer<>(Map.ofEntries(Map.entry(ProducerConfig.CLIENT_ID_CONFIG, CLIENT_ID),
                Map.entry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                Map.entry(ProducerConfig.ACKS_CONFIG, "all"), Map.entry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                Map.entry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5),
                Map.entry(ProducerConfig.LINGER_MS_CONFIG, 2),
                Map.entry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000),
                Map.entry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000),
                Map.entry(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200),
                Map.entry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000)),
                new StringSerializer(), new StringSerializer());
        for (int k = 0; k < keys; k++) {
            acked.put(key(k), new ConcurrentSkipListSet<>());
        }
        this.thread = new Thread(this::run, "numbered-producer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    static String key(int k) {
        return "key-" + k;
    }

    private void run() {
        long[] next = new long[keys];
        long sent = 0;
        long startedNs = System.nanoTime();
        while (running) {
            int k = (int) (sent % keys);
            String key = key(k);
            long number = next[k]++;
            try {
                producer.send(new ProducerRecord<>(topic, key, key + ":" + number), (metadata, error) -> {
                    if (error == null) {
                        acked.get(key).add(number);
                        ackedCount.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, error);
                    }
                });
            } catch (RuntimeException e) {
                failed.incrementAndGet();
                firstFailure.compareAndSet(null, e);
            }
            if (++sent % 20 == 0) {
                try {
                    Thread.sleep(pauseMs(sent, startedNs));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** How long to pause after {@code sent} records: 2 ms, or until the rate allows the next. */
    private long pauseMs(long sent, long startedNs) {
        if (recordsPerSecond <= 0) {
            return 2;
        }
        long dueMs = sent * 1000 / recordsPerSecond;
        long elapsedMs = (System.nanoTime() - startedNs) / 1_000_000;
        return Math.max(0, dueMs - elapsedMs);
    }

    public long ackedCount() {
        return ackedCount.get();
    }

    public long failedCount() {
        return failed.get();
    }

    /** What the producer reports: acknowledged and failed counts, and the first failure. */
    public String status() {
        return ackedCount.get() + " acknowledged, " + failed.get() + " failed" + (firstFailure.get() == null ? ""
                : ", first failure: " + firstFailure.get());
    }

    /** The client's own side, for a failure message: the node it sends each partition to, and its counts. */
    public String clientView() {
        StringBuilder view = new StringBuilder("sends partitions to");
        producer.partitionsFor(topic).forEach(partition -> view.append(' ').append(partition.partition()).append("->")
                .append(partition.leader() == null ? "none" : Integer.toString(partition.leader().id())));
        producer.metrics().forEach((name, metric) -> {
            if (name.group().equals("producer-metrics") && WATCHED_METRICS.contains(name.name())) {
                view.append("; ").append(name.name()).append(' ').append(metric.metricValue());
            }
        });
        return view.toString();
    }

    /** The acknowledged numbers per key, copied. */
    public Map<String, NavigableSet<Long>> acked() {
        Map<String, NavigableSet<Long>> copy = new TreeMap<>();
        acked.forEach((key, numbers) -> copy.put(key, new java.util.TreeSet<>(numbers)));
        return copy;
    }

    /** Waits until at least {@code more} further records were acknowledged; false if not in time. */
    public boolean awaitProgress(long more, Duration timeout) throws InterruptedException {
        long target = ackedCount.get() + more;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ackedCount.get() < target) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Stops sending and waits for every record sent to be acknowledged or failed; idempotent. */
    @Override
    public synchronized void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        running = false;
        thread.join(10_000);
        // Not flush(): it waits forever if the client's sender thread died. Closing waits for every send to be
        // answered or to fail (the delivery timeout, 120 s), and then fails what is left.
        producer.close(Duration.ofSeconds(150));
    }
}
