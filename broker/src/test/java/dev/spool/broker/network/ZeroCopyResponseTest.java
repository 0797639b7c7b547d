package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchResponseData.FetchableTopicResponse;
import dev.spool.protocol.message.FetchResponseData.PartitionData;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.Records;
import io.netty.buffer.ByteBuf;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZeroCopyResponseTest {

    private static final short VERSION = 12;

    @TempDir
    Path dir;

    private final TrackingAllocator allocator = new TrackingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final List<CompletableFuture<Message>> parked = new ArrayList<>();
    private FileChannel file;
    private byte[] fileBytes;

    @BeforeEach
    void setUp() throws IOException {
        fileBytes = new byte[1000];
        for (int i = 0; i < fileBytes.length; i++) {
            fileBytes[i] = (byte) (i * 7);
        }
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, fileBytes);
        file = FileChannel.open(path, StandardOpenOption.READ);
        ApiRegistry registry = new ApiRegistry();
        registry.register(ApiKey.FETCH, 4, 18, (context, request) -> {
            CompletableFuture<Message> answer = new CompletableFuture<>();
            parked.add(answer);
            return answer;
        });
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new FrameDecoder(1 << 20), new RequestDispatcher(registry,
                new ApiVersionsHandler(registry)));
    }

    @AfterEach
    void everythingReleased() throws IOException {
        assertThat(channel.finishAndReleaseAll()).as("responses left unread by the test").isFalse();
        assertThat(allocator.unreleased()).isEmpty();
        file.close();
    }

    @Test
    void fileRecordsAreSentAsFileRegionsBetweenBufferPieces() throws IOException {
        sendFetch(1);
        FetchResponseData response = twoPartitions(new FileRecords(file, 100, 300), new FileRecords(file, 600, 50));
        parked.get(0).complete(response);

        List<Object> pieces = OutboundPieces.drain(channel);
        assertThat(pieces).hasSize(5);
        assertThat(pieces.get(0)).isInstanceOf(ByteBuf.class);
        assertThat(pieces.get(1)).isInstanceOf(FileRegion.class);
        assertThat(pieces.get(2)).isInstanceOf(ByteBuf.class);
        assertThat(pieces.get(3)).isInstanceOf(FileRegion.class);
        assertThat(pieces.get(4)).isInstanceOf(ByteBuf.class);

        byte[] sent = OutboundPieces.bytesAndRelease(pieces);
        byte[] expected = heapFrame(1, twoPartitions(heap(100, 300), heap(600, 50)));
        assertThat(sent).isEqualTo(expected);
        assertThat(file.isOpen()).as("the segment's channel outlives the response").isTrue();
    }

    @Test
    void inMemoryRecordsAreCopiedIntoOneBuffer() throws IOException {
        sendFetch(2);
        parked.get(0).complete(twoPartitions(heap(0, 10), heap(10, 20)));

        List<Object> pieces = OutboundPieces.drain(channel);
        assertThat(pieces).singleElement().isInstanceOf(ByteBuf.class);
        assertThat(OutboundPieces.bytesAndRelease(pieces)).isEqualTo(heapFrame(2, twoPartitions(heap(0, 10), heap(10, 20))));
    }

    @Test
    void regionsWaitingBehindAnEarlierResponseAreReleasedWhenTheConnectionCloses() {
        sendFetch(3);
        sendFetch(4);
        parked.get(1).complete(twoPartitions(new FileRecords(file, 0, 10), new FileRecords(file, 10, 10)));
        assertThat((Object) channel.readOutbound()).isNull();

        channel.close();
        parked.get(0).complete(twoPartitions(new FileRecords(file, 0, 1), new FileRecords(file, 1, 1)));

        assertThat(file.isOpen()).isTrue();
    }

    private void sendFetch(int correlationId) {
        ByteBuffer header = ByteBufferWriter.serialize(new RequestHeaderData().setRequestApiKey(ApiKey.FETCH.id)
                .setRequestApiVersion(VERSION).setCorrelationId(correlationId).setClientId("zero-copy-test"),
                ApiKey.FETCH.requestHeaderVersion(VERSION));
        ByteBuffer body = ByteBufferWriter.serialize(new FetchRequestData(), VERSION);
        ByteBuf frame = allocator.buffer().writeInt(header.remaining() + body.remaining()).writeBytes(header)
                .writeBytes(body);
        channel.writeInbound(frame);
    }

    private static FetchResponseData twoPartitions(Records first, Records second) {
        return new FetchResponseData().setResponses(List.of(new FetchableTopicResponse().setTopic("t").setPartitions(
                List.of(new PartitionData().setPartitionIndex(0).setHighWatermark(9).setRecords(first),
                        new PartitionData().setPartitionIndex(1).setHighWatermark(8).setRecords(second)))));
    }

    private Records heap(int position, int length) {
        return new ByteBufferRecords(ByteBuffer.wrap(fileBytes, position, length));
    }

    private static byte[] heapFrame(int correlationId, FetchResponseData body) {
        ByteBuffer header = ByteBufferWriter.serialize(new ResponseHeaderData().setCorrelationId(correlationId),
                ApiKey.FETCH.responseHeaderVersion(VERSION));
        ByteBuffer bodyBytes = ByteBufferWriter.serialize(body, VERSION);
        ByteBuffer frame = ByteBuffer.allocate(4 + header.remaining() + bodyBytes.remaining());
        frame.putInt(header.remaining() + bodyBytes.remaining()).put(header).put(bodyBytes);
        FetchResponseData reread = new FetchResponseData();
        ProtocolReader reader = new ProtocolReader(ByteBuffer.wrap(frame.array(), 4 + header.limit(),
                bodyBytes.limit()));
        reread.read(reader, VERSION);
        assertThat(reread.responses()).hasSize(1);
        return frame.array();
    }
}
