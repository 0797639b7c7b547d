package dev.spool.bench;

import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.Uuid;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The generated message classes on the produce and fetch paths: parsing a Produce request and a Fetch
 * request as the dispatcher does (records stay slices of the frame), writing their answers. Six
 * partitions with a 16 KiB batch each, as a perf-test producer sends. Not thread-safe: one state per
 * benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CodecBenchmark {

    private static final String TOPIC = "bench";
    private static final Uuid TOPIC_ID = Uuid.randomUuid();

    private ByteBuffer produceRequest;
    private ByteBuffer fetchRequest;
    private ProduceResponseData produceResponse;
    private FetchResponseData fetchResponse;
    private ByteBuffer produceResponseBuffer;
    private ByteBuffer fetchResponseBuffer;

    @Setup
    public void setUp() {
        produceRequest = ByteBufferWriter.serialize(WireMessages.produce(TOPIC, BenchLogs.batch16KiB()),
                WireMessages.PRODUCE_VERSION);
        fetchRequest = ByteBufferWriter.serialize(WireMessages.fetch(TOPIC_ID, 0, 500), WireMessages.FETCH_VERSION);
        produceResponse = WireMessages.produceResponse(TOPIC);
        fetchResponse = WireMessages.fetchResponse(TOPIC_ID, BenchLogs.batch16KiB());
        produceResponseBuffer = ByteBuffer.allocateDirect(produceResponse.size(WireMessages.PRODUCE_VERSION));
        fetchResponseBuffer = ByteBuffer.allocateDirect(fetchResponse.size(WireMessages.FETCH_VERSION));
    }

    /** Produce v11 request, 6 x 16 KiB: what the dispatcher does to every produce frame. */
    @Benchmark
    public ProduceRequestData parseProduceRequest() {
        ProduceRequestData request = new ProduceRequestData();
        request.read(new ProtocolReader(produceRequest.duplicate()), WireMessages.PRODUCE_VERSION);
        return request;
    }

    /** The Produce v11 answer for 6 partitions: size, then write. */
    @Benchmark
    public ByteBuffer serializeProduceResponse() {
        ByteBuffer out = produceResponseBuffer.clear();
        produceResponse.size(WireMessages.PRODUCE_VERSION);
        produceResponse.write(new ByteBufferWriter(out), WireMessages.PRODUCE_VERSION);
        return out;
    }

    /** A consumer's Fetch v15 request for 6 partitions. */
    @Benchmark
    public FetchRequestData parseFetchRequest() {
        FetchRequestData request = new FetchRequestData();
        request.read(new ProtocolReader(fetchRequest.duplicate()), WireMessages.FETCH_VERSION);
        return request;
    }

    /** The Fetch v15 answer with 6 x 16 KiB held in memory (copied into the output buffer). */
    @Benchmark
    public ByteBuffer serializeFetchResponse() {
        ByteBuffer out = fetchResponseBuffer.clear();
        fetchResponse.size(WireMessages.FETCH_VERSION);
        fetchResponse.write(new ByteBufferWriter(out), WireMessages.FETCH_VERSION);
        return out;
    }
}
