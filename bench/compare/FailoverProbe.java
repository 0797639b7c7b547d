import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * FailoverProbe BOOTSTRAP KIND NODE=PID[,NODE=PID...]: how long a 3-node cluster (Spool or Kafka, the same
 * probe) is unavailable to a producer and a consumer when a node fails (issue 20's failover figures). On a
 * topic of 1 partition x 3 replicas, min.insync.replicas 2, an idempotent acks=all producer sends a record every
 * 5 ms and a consumer reads them; after 5 s the probe fails a node by KIND:
 *   kill-leader    SIGKILL of the partition's leader;
 *   stop-leader    SIGTERM of the partition's leader (a controlled shutdown);
 *   kill-quorum    SIGKILL of the metadata quorum's leader, which the topic's replicas are placed to lead nothing.
 * It prints, as KEY TAB VALUE lines: KIND_produce_ms, from the failure to the acknowledgement of the first record
 * the producer handed to its client after it (by the time it was sent, so a record sent just before the failure,
 * acknowledged at once, does not count); KIND_consume_ms, from the failure to the receipt of that record;
 * KIND_produce_stall_ms, the longest gap between acknowledgements around the failure. Not thread-safe: one run.
 */
public final class FailoverProbe {

    private static final String TOPIC = "failover";
    private static final long SEND_INTERVAL_MS = 5;

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FailoverProbe BOOTSTRAP kill-leader|stop-leader|kill-quorum NODE=PID,...");
            System.exit(2);
        }
        String bootstrap = args[0];
        String kind = args[1];
        Map<Integer, Long> pids = new HashMap<>();
        for (String pair : args[2].split(",")) {
            String[] parts = pair.split("=");
            pids.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            int quorumLeader = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
            createTopic(admin, kind, quorumLeader);
            Run run = new Run(bootstrap);
            run.start();
            Thread.sleep(5_000);
            int target = kind.equals("kill-quorum") ? quorumLeader : leader(admin);
            long failedAtNs = System.nanoTime();
            ProcessHandle process = ProcessHandle.of(pids.get(target))
                    .orElseThrow(() -> new IllegalStateException("no process " + pids.get(target)));
            if (kind.equals("stop-leader")) {
                process.destroy();
            } else {
                process.destroyForcibly();
            }
            Thread.sleep(100); // records go every 5 ms: by now several were sent after the failure
            long firstAfter = run.firstSentAfter(failedAtNs);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((run.firstAckAfter(firstAfter).isEmpty() || run.firstReceiptAfter(firstAfter).isEmpty()
                    || run.acksAfter(failedAtNs) < 200) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            run.stop();
            System.out.printf("%s_produce_ms\t%s%n", kind, millisSince(failedAtNs, run.firstAckAfter(firstAfter)));
            System.out.printf("%s_consume_ms\t%s%n", kind, millisSince(failedAtNs, run.firstReceiptAfter(firstAfter)));
            System.out.printf("%s_produce_stall_ms\t%d%n", kind, run.longestAckGapAround(failedAtNs));
            System.err.printf("failed node %d (pid %d) by %s; %d records sent, %d acknowledged%n", target,
                    pids.get(target), kind, run.sent(), run.acknowledged());
        }
    }

    private static void createTopic(Admin admin, String kind, int quorumLeader) throws Exception {
        NewTopic topic;
        if (kind.equals("kill-quorum")) {
            List<Integer> replicas = new ArrayList<>();
            for (Node node : admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)) {
                replicas.add(node.id());
            }
            Collections.sort(replicas);
            replicas.remove(Integer.valueOf(quorumLeader));
            replicas.add(quorumLeader); // last: the first replica leads, and the quorum leader leads nothing here
            topic = new NewTopic(TOPIC, Map.of(0, replicas));
        } else {
            topic = new NewTopic(TOPIC, 1, (short) 3);
        }
        admin.createTopics(List.of(topic.configs(Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (describe(admin).partitions().get(0).isr().size() < 3) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the topic's replicas never all in sync");
            }
            Thread.sleep(100);
        }
    }

    private static TopicDescription describe(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
    }

    private static int leader(Admin admin) throws Exception {
        return describe(admin).partitions().get(0).leader().id();
    }

    private static String millisSince(long startNs, Optional<Long> endNs) {
        return endNs.map(end -> String.valueOf(TimeUnit.NANOSECONDS.toMillis(end - startNs))).orElse("NA");
    }

    /** The producer and the consumer, with the time each record was acknowledged and received. */
    private static final class Run {
        private final KafkaProducer<String, String> producer;
        private final KafkaConsumer<String, String> consumer;
        private final Map<Long, Long> sentNs = new ConcurrentHashMap<>();
        private final Map<Long, Long> ackedNs = new ConcurrentHashMap<>();
        private final Map<Long, Long> receivedNs = new ConcurrentHashMap<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        private volatile long sent;

        Run(String bootstrap) {
            producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "acks", "all",
                    "enable.idempotence", "true", "linger.ms", "0"), new StringSerializer(), new StringSerializer());
            consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap, "auto.offset.reset", "earliest",
                    "enable.auto.commit", "false"), new StringDeserializer(), new StringDeserializer());
            consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
        }

        void start() {
            threads.add(new Thread(this::produce, "probe-producer"));
            threads.add(new Thread(this::consume, "probe-consumer"));
            threads.forEach(Thread::start);
        }

        private void produce() {
            for (long i = 0; running.get(); i++) {
                long index = i;
                sentNs.put(index, System.nanoTime());
                producer.send(new ProducerRecord<>(TOPIC, Long.toString(index)), (metadata, error) -> {
                    if (error == null) {
                        ackedNs.put(index, System.nanoTime());
                    }
                });
                sent = i + 1;
                sleep(SEND_INTERVAL_MS);
            }
        }

        private void consume() {
            while (running.get()) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    receivedNs.putIfAbsent(Long.parseLong(record.value()), System.nanoTime());
                }
            }
        }

        long sent() {
            return sent;
        }

        /** The number of the first record handed to the client after {@code timeNs} (sent later if none was yet). */
        long firstSentAfter(long timeNs) {
            return sentNs.entrySet().stream().filter(entry -> entry.getValue() > timeNs).map(Map.Entry::getKey)
                    .min(Long::compare).orElse(sent);
        }

        long acknowledged() {
            return ackedNs.size();
        }

        /** When the first record sent as number {@code index} or later was acknowledged. */
        Optional<Long> firstAckAfter(long index) {
            return ackedNs.entrySet().stream().filter(entry -> entry.getKey() >= index).map(Map.Entry::getValue)
                    .min(Long::compare);
        }

        Optional<Long> firstReceiptAfter(long index) {
            return receivedNs.entrySet().stream().filter(entry -> entry.getKey() >= index).map(Map.Entry::getValue)
                    .min(Long::compare);
        }

        long acksAfter(long timeNs) {
            return ackedNs.values().stream().filter(time -> time > timeNs).count();
        }

        /** The longest time between two acknowledgements from a second before {@code timeNs} on, in ms. */
        long longestAckGapAround(long timeNs) {
            List<Long> times = new ArrayList<>(ackedNs.values());
            Collections.sort(times);
            long longest = 0;
            Long previous = null;
            for (long time : times) {
                if (time >= timeNs - TimeUnit.SECONDS.toNanos(1)) {
                    if (previous != null) {
                        longest = Math.max(longest, time - previous);
                    }
                    previous = time;
                }
            }
            return TimeUnit.NANOSECONDS.toMillis(longest);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            producer.close(Duration.ofSeconds(5));
            consumer.close(Duration.ofSeconds(5));
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
