package dev.spool.bench;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.network.FrameDecoder;
import dev.spool.broker.network.RequestDispatcher;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The network layer's share of a produce request, without sockets: a Produce v11 frame (6 x 16 KiB)
 * goes through {@link FrameDecoder} and {@link RequestDispatcher} in an {@link EmbeddedChannel}, to a
 * handler that answers at once with a prepared response, which the dispatcher serializes. Not
 * thread-safe: one state per benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class DispatcherBenchmark {

    private EmbeddedChannel channel;
    private ByteBuffer frame;

    @Setup
    public void setUp() {
        Message answer = WireMessages.produceResponse("bench");
        ApiRegistry registry = new ApiRegistry()
                .register(ApiKey.PRODUCE, 3, ApiKey.PRODUCE.highestVersion,
                        (context, request) -> CompletableFuture.completedFuture(answer));
        channel = new EmbeddedChannel(new FrameDecoder(100 * 1024 * 1024),
                new RequestDispatcher(registry, new ApiVersionsHandler(registry)));
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        frame = RequestFrames.request(ApiKey.PRODUCE, WireMessages.PRODUCE_VERSION, 1,
                WireMessages.produce("bench", BenchLogs.batch16KiB()));
    }

    @Benchmark
    public int produceRequestThroughDispatcher() {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer(frame.remaining());
        in.writeBytes(frame.duplicate());
        channel.writeInbound(in);
        int written = 0;
        Object out;
        while ((out = channel.readOutbound()) != null) {
            written++;
            ReferenceCountUtil.release(out);
        }
        if (written == 0) {
            throw new IllegalStateException("no response written");
        }
        return written;
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }
}
