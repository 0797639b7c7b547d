package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.fuzz.FrameMutator;
import dev.spool.it.fuzz.FuzzClient;
import dev.spool.it.fuzz.FuzzSeeds;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Protocol fuzzing against a broker process: random and mutated frames from several connections at
 * once (see {@link FrameMutator} for the kinds), each judged by {@link FuzzClient}: the right answer or a
 * closed connection, never a hang, a malformed response or UNKNOWN_SERVER_ERROR. Between rounds a
 * well-behaved Java producer writes and a Java consumer reads the whole fuzz topic from offset 0 with
 * CRC checks, every offset once and in order, so a damaged batch the broker wrongly accepted would fail
 * it; the broker process must still be alive at the end. {@code -Dfuzz.inputs=N} (default 6000 for CI;
 * 100000+ locally) and {@code -Dfuzz.seed=S} (default 1; {@code random} for a new seed, printed)
 * reproduce a run; {@code -Dfuzz.firstRound=R -Dfuzz.thread=T} replay one round's inputs of
 * one thread (rounds are 2,000 inputs, 500 per thread). To find the inputs that matter:
 * {@code -Dfuzz.only=200-249,472} sends only those inputs of each thread (the others are still drawn, so
 * the random sequence stays the same), {@code -Dfuzz.log=true} prints every input with its answer, and
 * {@code -Dfuzz.keepData=DIR} copies the broker's data and output there when the well-behaved client
 * fails (for {@code spool dump-log --print-data-log}).
 */
class ProtocolFuzzIT {

    private static final String TOPIC = "fuzz";
    private static final int THREADS = 4;
    private static final int ROUND_INPUTS = 2_000;

    @Test
    void brokerSurvivesFuzzingAndKeepsServingAWellBehavedClient() throws Exception {
        long inputs = Long.getLong("fuzz.inputs", 6_000);
        // A fixed seed by default, so that CI runs the same inputs every time; -Dfuzz.seed=random for new ones.
        String seedProperty = System.getProperty("fuzz.seed", "1");
        long seed = seedProperty.equals("random") ? System.nanoTime() : Long.parseLong(seedProperty);
        try (SpoolProcess spool = SpoolProcess.start("auto.create.topics.enable=false",
                "group.initial.rebalance.delay.ms=0");
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            Uuid topicId = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC).topicId();
            FuzzSeeds seeds = new FuzzSeeds(advertised(spool.port()), TOPIC, topicId);
            WellBehavedClient client = new WellBehavedClient(spool.bootstrap());
            Map<String, Long> outcomes = new TreeMap<>();
            // To narrow a failure down: start at its round, and replay one thread's inputs only.
            int onlyThread = Integer.getInteger("fuzz.thread", -1);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            long started = System.nanoTime();
            long sent = 0;
            try {
                for (int round = Integer.getInteger("fuzz.firstRound", 0); sent < inputs; round++) {
                    int perThread = (int) Math.min(ROUND_INPUTS / THREADS, (inputs - sent + THREADS - 1) / THREADS);
                    List<Future<Map<String, Long>>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        Random random = new Random(seed * 31 + round * 1_000L + t);
                        int count = onlyThread >= 0 && onlyThread != t ? 0 : perThread;
                        String label = "r" + round + " t" + t;
                        int bomb = round * THREADS + t;
                        results.add(pool.submit(() -> fuzz(spool, seeds, random, count, count > 0 ? bomb : -1, label)));
                    }
                    for (Future<Map<String, Long>> result : results) {
                        try {
                            result.get(10, TimeUnit.MINUTES).forEach((k, v) -> outcomes.merge(k, v, Long::sum));
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw new AssertionError("fuzzing failed (seed " + seed + ", broker alive: " + spool.isAlive()
                                    + "); broker output ends with:\n" + tail(spool.output()), e);
                        }
                    }
                    sent += (long) perThread * THREADS;
                    assertThat(spool.isAlive()).as("broker alive after %d inputs (seed %d)", sent, seed).isTrue();
                    try {
                        client.produceAndReadEverything(round);
                    } catch (Exception | AssertionError e) {
                        String keep = System.getProperty("fuzz.keepData");
                        if (keep != null) {
                            copyData(spool, Path.of(keep));
                        }
                        throw new AssertionError("the well-behaved client failed after " + sent + " inputs (seed " + seed
                                + "); broker output ends with:\n" + tail(spool.output()), e);
                    }
                }
            } finally {
                pool.shutdownNow();
                client.close();
            }
            long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            System.out.printf("ProtocolFuzzIT: %d inputs in %d s (seed %d), well-behaved client checked %d times, "
                    + "%d records read back; outcomes %s%n", sent, seconds, seed, client.checks, client.recordsRead, outcomes);
            assertThat(spool.isAlive()).isTrue();
            List<String> output = spool.output();
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < output.size(); i++) {
                // acks=0 produce that fails closes its connection, as Kafka does; the dispatcher logs that at ERROR.
                boolean acksZeroClose = i + 1 < output.size() && output.get(i + 1).contains("with acks=0 failed");
                if (output.get(i).contains(" ERROR ") && !acksZeroClose) {
                    errors.add(String.join("\n", output.subList(i, Math.min(output.size(), i + 12))));
                }
            }
            assertThat(errors).as("the broker logged no error (a handler failure or an unexpected exception)").isEmpty();
        }
    }

    /**
     * Sends {@code count} inputs of the mutator's sequence, then (unless {@code bomb} is -1, or
     * {@code -Dfuzz.only} picks inputs) decompression bomb number {@code bomb}: one per thread and round, after
     * the random inputs, so that a seed's random inputs stay what they were before bombs existed.
     * {@code label} names the round and thread in the {@code -Dfuzz.log} lines.
     */
    private static Map<String, Long> fuzz(SpoolProcess spool, FuzzSeeds seeds, Random random, int count, int bomb,
                                          String label)
            throws Exception {
        Map<String, Long> outcomes = new TreeMap<>();
        String only = System.getProperty("fuzz.only");
        boolean log = Boolean.getBoolean("fuzz.log");
        FrameMutator mutator = new FrameMutator(random, seeds.all());
        List<FuzzSeeds.Seed> bombs = seeds.bombs();
        int total = bomb < 0 || bombs.isEmpty() ? count : count + 1;
        // The bomb seeds rotate by round and thread; the lie (variant) changes every full turn of them.
        try (FuzzClient client = new FuzzClient("127.0.0.1", spool.port(), 3_000)) {
            for (int i = 0; i < total; i++) {
                FrameMutator.Input input = i < count ? mutator.next()
                        : FrameMutator.bomb(bombs.get(bomb % bombs.size()), bomb / bombs.size());
                if (only != null && (i >= count || !selected(only, i))) {
                    continue;
                }
                FuzzClient.Outcome outcome;
                try {
                    outcome = client.send(input);
                } catch (FuzzClient.Violation e) {
                    throw new AssertionError(e.getMessage() + "\ninput: " + hex(input.frame()), e);
                }
                outcomes.merge(input.kind() + "/" + outcome, 1L, Long::sum);
                if (log) {
                    ByteBuffer frame = ByteBuffer.wrap(input.frame());
                    String header = frame.remaining() >= 8 ? "api " + frame.getShort(4) + " v" + frame.getShort(6) : "";
                    System.out.printf("FUZZ %s #%d %s %s %s %s -> %s%n  %s%n", label, i, input.kind(), input.seedApi(),
                            header, outcome, client.lastResponse(), hex(input.frame()));
                }
            }
        }
        return outcomes;
    }

    /** Copies the broker's data directory and its output to {@code target}, for {@code spool dump-log}. */
    private static void copyData(SpoolProcess spool, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(spool.dataDir())) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(spool.dataDir().relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Files.write(target.resolve("broker-output.txt"), spool.output());
    }

    /** {@code only} is a comma-separated list of input indexes and ranges (a-b, inclusive). */
    private static boolean selected(String only, int index) {
        for (String part : only.split(",")) {
            String[] bounds = part.trim().split("-");
            int from = Integer.parseInt(bounds[0]);
            int to = bounds.length > 1 ? Integer.parseInt(bounds[1]) : from;
            if (index >= from && index <= to) {
                return true;
            }
        }
        return false;
    }

    private static String tail(List<String> output) {
        return String.join("\n", output.subList(Math.max(0, output.size() - 40), output.size()));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 512); i++) {
            out.append(String.format("%02x", bytes[i]));
        }
        return out.toString();
    }

    /** The ApiVersions answer (v0, read by kafka-clients' class) on {@code port}: what to build seeds for. */
    static Map<ApiKeys, short[]> advertised(int port) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            byte[] clientId = "fuzz".getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(ByteBuffer.allocate(14 + clientId.length).putInt(10 + clientId.length)
                    .putShort(ApiKeys.API_VERSIONS.id).putShort((short) 0).putInt(1)
                    .putShort((short) clientId.length).put(clientId).array());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            ByteBuffer body = ByteBuffer.wrap(response, 4, response.length - 4);
            ApiVersionsResponseData data = new ApiVersionsResponseData(new ByteBufferAccessor(body.slice()), (short) 0);
            Map<ApiKeys, short[]> advertised = new EnumMap<>(ApiKeys.class);
            for (ApiVersionsResponseData.ApiVersion version : data.apiKeys()) {
                if (ApiKeys.hasId(version.apiKey())) {
                    advertised.put(ApiKeys.forId(version.apiKey()), new short[] {version.minVersion(), version.maxVersion()});
                }
            }
            return advertised;
        }
    }

    /** An idempotent producer and a consumer that reads the fuzz topic from offset 0 with CRC checks. */
    private static final class WellBehavedClient implements AutoCloseable {
        private final KafkaProducer<String, String> producer;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final TopicPartition partition = new TopicPartition(TOPIC, 0);
        int checks;
        long recordsRead;

        WellBehavedClient(String bootstrap) {
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                    new StringSerializer(), new StringSerializer());
            consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.CHECK_CRCS_CONFIG, true), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumer.assign(List.of(partition));
        }

        void produceAndReadEverything(int round) throws Exception {
            long offset = producer.send(new ProducerRecord<>(TOPIC, "well-behaved", "round " + round))
                    .get(30, TimeUnit.SECONDS).offset();
            consumer.seek(partition, 0);
            // Nothing else writes while this reads, rejected batches take no offsets and clients cannot write
            // control batches: the consumer must see every offset from 0 to the one just produced, in order.
            long expected = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (expected <= offset && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() != expected) {
                        throw new AssertionError("the well-behaved consumer read offset " + record.offset() + " where "
                                + expected + " was due (the producer was given offset " + offset + ")");
                    }
                    expected++;
                }
            }
            assertThat(expected).as("the well-behaved consumer reads the whole topic up to offset %d (position %d)",
                    offset, consumer.position(partition)).isEqualTo(offset + 1);
            checks++;
            recordsRead += expected;
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(5));
            consumer.close(Duration.ofSeconds(5));
        }
    }
}
