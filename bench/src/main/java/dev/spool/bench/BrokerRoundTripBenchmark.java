package dev.spool.bench;

import dev.spool.broker.EmbeddedSpool;
import dev.spool.broker.Spool;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole request path of a real broker ({@link Spool#embedded}) over a loopback socket, one
 * request in flight: Produce v11 acks=1 of 6 x 16 KiB (decode, validate, append, answer) and Fetch
 * v15 of up to 1 MiB from each of 6 partitions (sendfile from the segment files). The broker runs in
 * the benchmark's JVM, so its threads and the client's share the CPU. Also a Produce acks=all of one
 * 16 KiB batch, the shape of the side-by-side harness's fixed-rate workload c, whose cost is the
 * request's own (thread hand-offs, system calls) more than its bytes. Not thread-safe: one thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class BrokerRoundTripBenchmark {

    private static final int FETCH_BATCHES_PER_PARTITION = 80;

    private EmbeddedSpool spool;
    private WireClient client;
    private ByteBuffer produceFrame;
    private ByteBuffer singleBatchFrame;
    private ByteBuffer fetchFrame;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        spool = Spool.embedded(Map.of("log.retention.check.interval.ms", "1000"));
        client = new WireClient("127.0.0.1", spool.port());
        // The produced topic keeps ~64 MiB per partition, so a long run does not fill the disk.
        createTopic("produced", Map.of("retention.bytes", Integer.toString(64 << 20),
                "segment.bytes", Integer.toString(16 << 20)));
        Uuid fetchedId = createTopic("fetched", Map.of());
        ByteBuffer batch = BenchLogs.batch16KiB();
        produceFrame = RequestFrames.request(ApiKey.PRODUCE, WireMessages.PRODUCE_VERSION, 1,
                WireMessages.produce("produced", batch));
        singleBatchFrame = RequestFrames.request(ApiKey.PRODUCE, WireMessages.PRODUCE_VERSION, 3,
                WireMessages.produce("produced", batch, 1, (short) -1));
        requireAppended(client.roundTrip(singleBatchFrame), "produced"); // so that no error path is measured
        ByteBuffer fill = RequestFrames.request(ApiKey.PRODUCE, WireMessages.PRODUCE_VERSION, 1,
                WireMessages.produce("fetched", batch));
        for (int i = 0; i < FETCH_BATCHES_PER_PARTITION; i++) {
            requireAppended(client.roundTrip(fill), "fetched");
        }
        fetchFrame = RequestFrames.request(ApiKey.FETCH, WireMessages.FETCH_VERSION, 2,
                WireMessages.fetch(fetchedId, 0, 0));
    }

    private static void requireAppended(ByteBuffer produceAnswer, String topic) {
        ProduceResponseData answer = RequestFrames.response(ApiKey.PRODUCE, WireMessages.PRODUCE_VERSION,
                produceAnswer, new ProduceResponseData());
        short error = answer.responses().get(0).partitionResponses().get(0).errorCode();
        if (error != Errors.NONE.code()) {
            throw new IllegalStateException("produce to " + topic + " failed: error " + error);
        }
    }

    private Uuid createTopic(String name, Map<String, String> configs) throws IOException {
        List<CreateTopicsRequestData.CreatableTopicConfig> configList = new ArrayList<>();
        configs.forEach((key, value) -> configList.add(
                new CreateTopicsRequestData.CreatableTopicConfig().setName(key).setValue(value)));
        List<CreateTopicsRequestData.CreatableTopic> topics = new ArrayList<>();
        topics.add(new CreateTopicsRequestData.CreatableTopic().setName(name).setNumPartitions(WireMessages.PARTITIONS)
                .setReplicationFactor((short) 1).setConfigs(configList));
        CreateTopicsResponseData answer = client.call(ApiKey.CREATE_TOPICS, (short) 7,
                new CreateTopicsRequestData().setTopics(topics).setTimeoutMs(30_000), new CreateTopicsResponseData());
        CreateTopicsResponseData.CreatableTopicResult result = answer.topics().get(0);
        if (result.errorCode() != Errors.NONE.code()) {
            throw new IllegalStateException("create topic " + name + ": error " + result.errorCode());
        }
        return result.topicId();
    }

    /** Produce v11, acks=1, one 16 KiB batch to each of 6 partitions: requests/s x 96 KiB = bytes/s. */
    @Benchmark
    public int produce6x16KiB() throws IOException {
        return client.roundTrip(produceFrame).remaining();
    }

    /** Produce v11, acks=all, one 16 KiB batch to one partition: requests/s, one in flight. */
    @Benchmark
    public int produce1x16KiBAcksAll() throws IOException {
        return client.roundTrip(singleBatchFrame).remaining();
    }

    /** Fetch v15 from offset 0 of 6 partitions, up to 1 MiB each (~6 MiB answers from the page cache). */
    @Benchmark
    public int fetch6x1MiB() throws IOException {
        return client.roundTrip(fetchFrame).remaining();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        client.close();
        spool.close();
    }
}
