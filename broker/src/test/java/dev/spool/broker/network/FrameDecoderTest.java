package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {

    private static final int MAX_FRAME_BYTES = 64;

    private final TrackingAllocator allocator = new TrackingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel();

    @BeforeEach
    void pipeline() {
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new FrameDecoder(MAX_FRAME_BYTES));
    }

    @AfterEach
    void everyBufferIsReleased() {
        assertThat(channel.finishAndReleaseAll()).as("frames left unread by the test").isFalse();
        assertThat(allocator.unreleased()).isEmpty();
    }

    @Test
    void frameSplitAcrossReadsIsReassembled() {
        ByteBuf stream = frames("hello, frame");

        channel.writeInbound(stream.readRetainedSlice(2));
        channel.writeInbound(stream.readRetainedSlice(5));
        assertThat((Object) channel.readInbound()).as("no frame before all its bytes are there").isNull();
        channel.writeInbound(stream.readRetainedSlice(stream.readableBytes()));
        stream.release();

        assertThat(readFrames()).containsExactly("hello, frame");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void sizeFieldSplitAcrossReadsIsReassembled() {
        ByteBuf stream = frames("abc");

        channel.writeInbound(stream.readRetainedSlice(3));
        channel.writeInbound(stream.readRetainedSlice(stream.readableBytes()));
        stream.release();

        assertThat(readFrames()).containsExactly("abc");
    }

    @Test
    void severalFramesInOneReadAreAllEmitted() {
        channel.writeInbound(frames("one", "", "three", "four"));

        assertThat(readFrames()).containsExactly("one", "", "three", "four");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void trailingPartialFrameWaitsForTheRestOfItsBytes() {
        ByteBuf stream = frames("first", "second");

        channel.writeInbound(stream.readRetainedSlice(stream.readableBytes() - 2));
        assertThat(readFrames()).containsExactly("first");
        channel.writeInbound(stream.readRetainedSlice(2));
        stream.release();

        assertThat(readFrames()).containsExactly("second");
    }

    @Test
    void frameOfExactlyTheLimitIsAccepted() {
        String largest = "x".repeat(MAX_FRAME_BYTES);

        channel.writeInbound(frames(largest));

        assertThat(readFrames()).containsExactly(largest);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void frameOverTheLimitClosesTheChannel() {
        ByteBuf stream = allocator.buffer().writeInt(MAX_FRAME_BYTES + 1).writeZero(MAX_FRAME_BYTES + 1);

        channel.writeInbound(stream);

        assertThat(readFrames()).isEmpty();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void frameOverTheLimitClosesTheChannelBeforeItsBodyArrives() {
        channel.writeInbound(allocator.buffer().writeInt(Integer.MAX_VALUE));

        assertThat(readFrames()).isEmpty();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void negativeSizeClosesTheChannel() {
        channel.writeInbound(allocator.buffer().writeInt(-1).writeZero(8));

        assertThat(readFrames()).isEmpty();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void framesBeforeAnInvalidSizeAreStillEmitted() {
        ByteBuf stream = frames("good").writeInt(-5).writeZero(4);

        channel.writeInbound(stream);

        assertThat(readFrames()).containsExactly("good");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void emittedFrameIsASliceOwnedByTheReader() {
        ByteBuf stream = frames("owned");
        channel.writeInbound(stream);

        ByteBuf frame = channel.readInbound();
        assertThat(frame.refCnt()).as("the frame keeps the bytes alive").isPositive();
        assertThat(stream.refCnt()).as("the stream is alive while its frame is").isPositive();
        frame.release();

        assertThat(stream.refCnt()).as("releasing the frame frees the stream").isZero();
    }

    /** The payloads of the frames the decoder emitted so far, each frame released. */
    private List<String> readFrames() {
        List<String> payloads = new ArrayList<>();
        for (ByteBuf frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
            try {
                payloads.add(frame.toString(StandardCharsets.UTF_8));
            } finally {
                frame.release();
            }
        }
        return payloads;
    }

    /** A stream holding one size-prefixed frame for each payload. */
    private ByteBuf frames(String... payloads) {
        ByteBuf stream = allocator.buffer();
        for (String payload : payloads) {
            byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
            stream.writeInt(bytes.length).writeBytes(bytes);
        }
        return stream;
    }
}
