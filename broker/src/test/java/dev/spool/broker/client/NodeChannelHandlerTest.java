package dev.spool.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsRequestData;
import dev.spool.protocol.message.ApiVersionsResponseData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.MessageParseException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pipeline of a node connection on an {@link EmbeddedChannel}: no sockets, time moved by hand. */
class NodeChannelHandlerTest {

    private static final NodeAddress PEER = new NodeAddress("node-1.example", 9093);
    private static final short V3 = 3;

    private final List<ByteBuf> fedToChannel = new ArrayList<>();
    private EmbeddedChannel channel = channel(ClientSettings.of("spool-node-3"));

    private static EmbeddedChannel channel(ClientSettings settings) {
        AtomicInteger ids = new AtomicInteger();
        return new EmbeddedChannel(new NodeChannelInitializer(PEER, settings, ChannelSecurity.PLAINTEXT, ids::getAndIncrement));
    }

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
        assertThat(fedToChannel).as("response bytes the pipeline released").allMatch(buffer -> buffer.refCnt() == 0);
    }

    private PendingRequest send(String softwareName) {
        ApiVersionsRequestData body = new ApiVersionsRequestData().setClientSoftwareName(softwareName)
                .setClientSoftwareVersion("1");
        PendingRequest request = new PendingRequest(ApiKey.API_VERSIONS, V3, ByteBufferWriter.serialize(body, V3));
        channel.writeAndFlush(request);
        return request;
    }

    private void receive(byte[] bytes) {
        ByteBuf buffer = Unpooled.wrappedBuffer(bytes);
        fedToChannel.add(buffer);
        channel.writeInbound(buffer);
    }

    private void receiveResponse(int correlationId, int throttleTimeMs) {
        receive(TestFrames.response(ApiKey.API_VERSIONS, V3, correlationId,
                new ApiVersionsResponseData().setThrottleTimeMs(throttleTimeMs)));
    }

    private static Throwable failure(PendingRequest request) {
        assertThat(request.response).isCompletedExceptionally();
        return assertThatThrownBy(request.response::get).isInstanceOf(ExecutionException.class).actual().getCause();
    }

    @Test
    void aRetiredConnectionClosesOnceItsLastResponseCame() throws Exception {
        PendingRequest first = send("first");
        PendingRequest second = send("second");
        ((ByteBuf) channel.readOutbound()).release();
        ((ByteBuf) channel.readOutbound()).release();

        channel.pipeline().fireUserEventTriggered(ChannelLogin.RETIRE);
        receiveResponse(0, 0);
        assertThat(channel.isActive()).as("open while a request is in flight").isTrue();
        receiveResponse(1, 0);

        assertThat(first.response.get()).isInstanceOf(ApiVersionsResponseData.class);
        assertThat(second.response.get()).isInstanceOf(ApiVersionsResponseData.class);
        assertThat(channel.isActive()).as("closed after the last response").isFalse();
    }

    @Test
    void aRetiredConnectionWithNothingInFlightClosesAtOnce() {
        channel.pipeline().fireUserEventTriggered(ChannelLogin.RETIRE);

        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void writesTheSizeTheRequestHeaderWithTheClientIdAndTheBody() {
        send("spool");

        ByteBuf frame = channel.readOutbound();
        try {
            TestFrames.Request written = TestFrames.readRequest(frame, new ApiVersionsRequestData());
            assertThat(written.sizeField()).isEqualTo(frame.readableBytes() - 4);
            assertThat(written.header().requestApiKey()).isEqualTo(ApiKey.API_VERSIONS.id);
            assertThat(written.header().requestApiVersion()).isEqualTo(V3);
            assertThat(written.header().correlationId()).isZero();
            assertThat(written.header().clientId()).isEqualTo("spool-node-3");
            assertThat(written.body()).isEqualTo(new ApiVersionsRequestData().setClientSoftwareName("spool")
                    .setClientSoftwareVersion("1"));
        } finally {
            frame.release();
        }
    }

    @Test
    void givesEachRequestTheResponseWithItsCorrelationId() {
        PendingRequest first = send("a");
        PendingRequest second = send("b");
        assertThat(List.of(first.correlationId(), second.correlationId())).containsExactly(0, 1);

        receiveResponse(0, 100);
        assertThat(first.response).isCompleted();
        assertThat(second.response).isNotDone();
        receiveResponse(1, 200);

        assertThat(((ApiVersionsResponseData) first.response.join()).throttleTimeMs()).isEqualTo(100);
        assertThat(((ApiVersionsResponseData) second.response.join()).throttleTimeMs()).isEqualTo(200);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aResponseReadInPiecesCompletesOnlyWhenWhole() {
        PendingRequest request = send("a");
        byte[] frame = TestFrames.response(ApiKey.API_VERSIONS, V3, 0,
                new ApiVersionsResponseData().setThrottleTimeMs(7));

        receive(Arrays.copyOfRange(frame, 0, 3));
        receive(Arrays.copyOfRange(frame, 3, frame.length - 1));
        assertThat(request.response).isNotDone();
        receive(Arrays.copyOfRange(frame, frame.length - 1, frame.length));

        assertThat(((ApiVersionsResponseData) request.response.join()).throttleTimeMs()).isEqualTo(7);
    }

    @Test
    void anUnexpectedCorrelationIdFailsEveryRequestInFlightAndCloses() {
        PendingRequest first = send("a");
        PendingRequest second = send("b");

        receiveResponse(1, 0);

        assertThat(failure(first)).isInstanceOf(IOException.class)
                .hasMessageContaining("ApiVersions v3 (correlation id 0)")
                .cause().hasMessageContaining("correlation id 1")
                .hasMessageContaining("expected ApiVersions v3 (correlation id 0)");
        assertThat(failure(second)).isInstanceOf(IOException.class).hasMessageContaining("correlation id 1");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aResponseWithNoRequestInFlightCloses() {
        receiveResponse(0, 0);

        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aSizeFieldOverTheLimitFailsTheRequestsBeforeTheFrameIsRead() {
        channel = channel(ClientSettings.of("spool-node-3").withMaxResponseBytes(1024));
        PendingRequest request = send("a");

        receive(new byte[] {0, 0, 0x04, 0x01}); // 1025 bytes follow, says the size field

        assertThat(failure(request)).isInstanceOf(IOException.class).cause()
                .hasMessageContaining("Bad response frame from node-1.example:9093")
                .hasMessageContaining("limited to 1024 bytes");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aNegativeSizeFieldFailsTheRequests() {
        PendingRequest request = send("a");

        receive(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0});

        assertThat(failure(request)).isInstanceOf(IOException.class).cause().hasMessageContaining("Bad response frame");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aBodyThatCannotBeParsedFailsOnlyItsRequest() {
        PendingRequest first = send("a");
        PendingRequest second = send("b");

        receive(new byte[] {0, 0, 0, 5, 0, 0, 0, 0, 1}); // correlation id 0, then one byte of an int16 error code
        receiveResponse(1, 200);

        assertThat(failure(first)).isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot parse the response to ApiVersions v3 (correlation id 0) from "
                        + "node-1.example:9093")
                .hasCauseInstanceOf(MessageParseException.class);
        assertThat(((ApiVersionsResponseData) second.response.join()).throttleTimeMs()).isEqualTo(200);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aRequestWithNoResponseWithinTheTimeoutFailsAndClosesTheConnection() {
        channel = channel(ClientSettings.of("spool-node-3").withRequestTimeoutMs(500));
        channel.freezeTime();
        PendingRequest first = send("a");
        PendingRequest second = send("b");

        channel.advanceTimeBy(499, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(first.response).isNotDone();
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();

        assertThat(failure(first)).isInstanceOf(TimeoutException.class)
                .hasMessage("ApiVersions v3 (correlation id 0) to node-1.example:9093: no response in 500 ms");
        assertThat(failure(second)).isInstanceOf(IOException.class).hasCauseInstanceOf(TimeoutException.class);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aResponseInTimeCancelsTheTimeout() {
        channel = channel(ClientSettings.of("spool-node-3").withRequestTimeoutMs(500));
        channel.freezeTime();
        PendingRequest request = send("a");
        receiveResponse(0, 0);

        channel.advanceTimeBy(1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        assertThat(request.response).isCompleted();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aConnectionClosedWithRequestsInFlightFailsThem() {
        PendingRequest request = send("a");

        channel.close();

        assertThat(failure(request)).isInstanceOf(IOException.class)
                .hasMessage("Connection to node-1.example:9093 closed before the response to ApiVersions v3 "
                        + "(correlation id 0)");
        // The sender learns of a later request from its write: NodeConnection fails the request then.
        assertThat(channel.writeAndFlush(new PendingRequest(ApiKey.API_VERSIONS, V3,
                ByteBufferWriter.serialize(new ApiVersionsRequestData(), V3))).isSuccess()).isFalse();
    }

    @Test
    void aRequestCancelledByItsCallerStillTakesItsResponseOffTheStream() {
        PendingRequest cancelled = send("a");
        PendingRequest next = send("b");
        CompletableFuture<Message> response = cancelled.response;
        response.cancel(false);

        receiveResponse(0, 100);
        receiveResponse(1, 200);

        assertThat(((ApiVersionsResponseData) next.response.join()).throttleTimeMs()).isEqualTo(200);
        assertThat(channel.isOpen()).isTrue();
    }
}
