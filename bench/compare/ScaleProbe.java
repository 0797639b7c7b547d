import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The client side of bench/scale.sh: creates many partitions, times Metadata for all topics, and
 * puts a producer load on every partition. Topics are named PREFIX-00000, PREFIX-00001, ... Results
 * go to standard output as "key TAB value" lines. Command line tool; the load's callbacks run on
 * the producer's I/O thread, the rest on the main thread.
 *
 * <pre>
 * create   BOOTSTRAP PREFIX TOPICS PARTITIONS KEY      Admin createTopics, at most 1,000 partitions a
 *                                                      request, one request after the other:
 *                                                      KEY_ms (all of them), KEY_requests
 * metadata BOOTSTRAP PREFIX EXPECTED TIMEOUT_S TRIALS KEY
 *                                                      Metadata v12 for all topics until the PREFIX
 *                                                      topics show EXPECTED partitions with a leader
 *                                                      (exit 1 after TIMEOUT_S), then TRIALS timed
 *                                                      requests on one connection: KEY_ms (median),
 *                                                      KEY_kb (answer size), KEY_partitions
 * load     BOOTSTRAP PREFIX TOPICS PARTITIONS RATE SIZE SECONDS KEY
 *                                                      acks=1 records of SIZE bytes at RATE/s, round
 *                                                      robin over every partition; prints PID and its
 *                                                      process id first, ALL_WRITTEN
 *                                                      once each partition acknowledged one, then goes
 *                                                      on SECONDS more (exit 1 if that takes 300 s):
 *                                                      KEY_sent, KEY_acked, KEY_failed, KEY_all_written_s
 * </pre>
 */
public final class ScaleProbe {
    private static final int PARTITIONS_PER_REQUEST = 1000;
    private static final long ALL_WRITTEN_TIMEOUT_MS = 300_000;

    private ScaleProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "create" -> create(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
            case "metadata" -> metadata(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6]);
            case "load" -> load(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]), args[8]);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    static String topic(String prefix, int i) {
        return String.format("%s-%05d", prefix, i);
    }

    private static void create(String bootstrap, String prefix, int topics, int partitions, String key)
            throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "120000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "300000");
        int topicsPerRequest = Math.max(1, PARTITIONS_PER_REQUEST / partitions);
        try (Admin admin = Admin.create(props)) {
            admin.describeCluster().nodes().get(); // connected and bootstrapped: not timed
            long t0 = System.nanoTime();
            int requests = 0;
            for (int first = 0; first < topics; first += topicsPerRequest) {
                List<NewTopic> batch = new ArrayList<>();
                for (int i = first; i < Math.min(topics, first + topicsPerRequest); i++) {
                    batch.add(new NewTopic(topic(prefix, i), partitions, (short) 1));
                }
                admin.createTopics(batch).all().get();
                requests++;
            }
            System.out.printf("%s_ms\t%.1f%n%s_requests\t%d%n", key, (System.nanoTime() - t0) / 1e6, key, requests);
        }
    }

    private static void metadata(String bootstrap, String prefix, int expected, int timeoutS, int trials, String key)
            throws Exception {
        String host = bootstrap.substring(0, bootstrap.lastIndexOf(':'));
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        byte[] request = StartupProbe.metadataRequest();
        long deadline = System.currentTimeMillis() + timeoutS * 1000L;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(120_000);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int led;
            while ((led = ledPartitions(ask(out, in, request), prefix + "-")) != expected) {
                if (System.currentTimeMillis() > deadline) {
                    System.err.printf("%d partitions of %s-* with a leader after %d s, expected %d%n",
                            led, prefix, timeoutS, expected);
                    System.exit(1);
                }
                Thread.sleep(200);
            }
            if (trials == 0) {
                return;
            }
            double[] ms = new double[trials];
            int bytes = 0;
            for (int i = 0; i < trials; i++) {
                long t0 = System.nanoTime();
                bytes = ask(out, in, request).capacity();
                ms[i] = (System.nanoTime() - t0) / 1e6;
            }
            Arrays.sort(ms);
            System.out.printf("%s_ms\t%.2f%n%s_kb\t%.1f%n%s_partitions\t%d%n",
                    key, ms[trials / 2], key, bytes / 1024.0, key, led);
        }
    }

    /** Sends a request and reads its whole answer (after the size). */
    private static ByteBuffer ask(OutputStream out, DataInputStream in, byte[] request) throws IOException {
        out.write(request);
        out.flush();
        byte[] answer = new byte[in.readInt()];
        in.readFully(answer);
        return ByteBuffer.wrap(answer);
    }

    /**
     * Partitions of the topics named PREFIX... with no error and a leader, in a Metadata v12 answer:
     * header v1 (correlation id, tags); throttle; brokers [node, host, port, rack, tags]; cluster id;
     * controller; topics [error, name, id, internal, partitions [error, index, leader, epoch,
     * replicas[], isr[], offline[], tags], authorized operations, tags]; tags.
     */
    static int ledPartitions(ByteBuffer b, String prefix) {
        b.getInt(); // correlation id
        skipTags(b);
        b.getInt(); // throttle time
        for (int n = arrayLength(b); n > 0; n--) {
            b.getInt();
            string(b);
            b.getInt();
            string(b);
            skipTags(b);
        }
        string(b); // cluster id
        b.getInt(); // controller
        int led = 0;
        for (int t = arrayLength(b); t > 0; t--) {
            short topicError = b.getShort();
            String name = string(b);
            b.position(b.position() + 16 + 1); // topic id, is internal
            for (int p = arrayLength(b); p > 0; p--) {
                short error = b.getShort();
                b.getInt(); // index
                int leader = b.getInt();
                b.getInt(); // leader epoch
                for (int list = 0; list < 3; list++) { // replicas, isr, offline replicas
                    int nodes = Math.max(0, arrayLength(b));
                    b.position(b.position() + 4 * nodes);
                }
                skipTags(b);
                if (topicError == 0 && error == 0 && leader >= 0 && name != null && name.startsWith(prefix)) {
                    led++;
                }
            }
            b.getInt(); // authorized operations
            skipTags(b);
        }
        return led;
    }

    private static int unsignedVarint(ByteBuffer b) {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte next = b.get();
            value |= (next & 0x7f) << shift;
            if (next >= 0) {
                return value;
            }
        }
    }

    /** A compact array's length (-1: null). */
    private static int arrayLength(ByteBuffer b) {
        return unsignedVarint(b) - 1;
    }

    private static String string(ByteBuffer b) {
        int length = unsignedVarint(b) - 1;
        if (length < 0) {
            return null;
        }
        String s = new String(b.array(), b.arrayOffset() + b.position(), length, StandardCharsets.UTF_8);
        b.position(b.position() + length);
        return s;
    }

    private static void skipTags(ByteBuffer b) {
        for (int n = unsignedVarint(b); n > 0; n--) {
            unsignedVarint(b);
            int size = unsignedVarint(b);
            b.position(b.position() + size);
        }
    }

    private static void load(String bootstrap, String prefix, int topics, int partitions, int rate, int size,
            int seconds, String key) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "2000"); // a dead broker must not stall the loop
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "spool-bench-scale-load");
        // Round robin over thousands of partitions puts one record in each batch: with the default 16 KiB
        // batch buffers the 32 MiB buffer pool holds 2,048 batches and send() blocks (~1,000 records/s).
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(Math.max(1024, 4 * size)));
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(128 << 20));
        int total = topics * partitions;
        AtomicIntegerArray written = new AtomicIntegerArray(total);
        AtomicLong unwritten = new AtomicLong(total);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        byte[] value = new byte[size];
        System.out.println("PID " + ProcessHandle.current().pid());
        System.out.flush();
        long t0 = System.nanoTime();
        long allWrittenNanos = 0;
        long sent = 0;
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            for (long i = 0; ; i++) {
                long now = System.nanoTime();
                if (allWrittenNanos == 0 && unwritten.get() == 0) {
                    allWrittenNanos = now;
                    System.out.println("ALL_WRITTEN");
                    System.out.flush();
                }
                if (allWrittenNanos != 0 ? now - allWrittenNanos > TimeUnit.SECONDS.toNanos(seconds)
                        : now - t0 > TimeUnit.MILLISECONDS.toNanos(ALL_WRITTEN_TIMEOUT_MS)) {
                    break;
                }
                long dueNanos = t0 + i * 1_000_000_000L / rate;
                if (dueNanos - now > 1_000_000) {
                    Thread.sleep((dueNanos - now) / 1_000_000);
                }
                int slot = (int) (i % total);
                ProducerRecord<byte[], byte[]> record =
                        new ProducerRecord<>(topic(prefix, slot % topics), slot / topics, null, value);
                try {
                    producer.send(record, (metadata, error) -> {
                        if (error != null) {
                            failed.incrementAndGet();
                        } else {
                            acked.incrementAndGet();
                            if (written.getAndSet(slot, 1) == 0) {
                                unwritten.decrementAndGet();
                            }
                        }
                    });
                    sent++;
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                }
            }
        } finally {
            producer.close(Duration.ZERO);
        }
        System.out.printf("%s_sent\t%d%n%s_acked\t%d%n%s_failed\t%d%n", key, sent, key, acked.get(), key, failed.get());
        if (allWrittenNanos == 0) {
            System.err.printf("%d of %d partitions acknowledged no record in %d s%n",
                    unwritten.get(), total, ALL_WRITTEN_TIMEOUT_MS / 1000);
            System.exit(1);
        }
        System.out.printf("%s_all_written_s\t%.1f%n", key, (allWrittenNanos - t0) / 1e9);
    }
}
