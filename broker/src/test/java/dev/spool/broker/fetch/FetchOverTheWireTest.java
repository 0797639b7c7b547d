package dev.spool.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.network.FrameDecoder;
import dev.spool.broker.network.OutboundPieces;
import dev.spool.broker.network.RequestDispatcher;
import dev.spool.broker.partition.Partition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchRequestData.FetchPartition;
import dev.spool.protocol.message.FetchRequestData.FetchTopic;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchResponseData.PartitionData;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.Uuid;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetch at every version from 4 to 18 through the real network pipeline: the response written as
 * buffers and file regions parses as the version's response, and its records are the log's bytes.
 */
class FetchOverTheWireTest {

    private static final Uuid TOPIC_ID = new Uuid(5L, 6L);

    @TempDir
    Path dir;

    private TestPartitions partitions;
    private FetchHandler handler;
    private EmbeddedChannel channel;
    private Partition partition;

    @BeforeEach
    void setUp() throws IOException {
        partitions = new TestPartitions(dir);
        partition = partitions.create("wire", 0, TOPIC_ID, 0);
        TestPartitions.append(partition, 3, 50, 1000);
        TestPartitions.append(partition, 4, 50, 2000);
        handler = new FetchHandler(partitions, new FetchSessionCache(100, FetchSessionCache.DEFAULT_EVICTION_MS),
                partitions.clock::nowMs);
        ApiRegistry registry = new ApiRegistry().register(ApiKey.FETCH, 4, 18, handler);
        channel = new EmbeddedChannel(new FrameDecoder(1 << 20), new RequestDispatcher(registry,
                new ApiVersionsHandler(registry)));
    }

    @AfterEach
    void tearDown() throws IOException {
        channel.finishAndReleaseAll();
        handler.close();
        partitions.close();
    }

    @Test
    void everyVersionAnswersTheLogBytes() throws IOException {
        ByteBuffer logBytes = partition.log().read(0, Integer.MAX_VALUE).readFully();
        for (short version = 4; version <= 18; version++) {
            send(version, 100 + version, version >= 13);

            FetchResponseData response = receive(version, 100 + version);

            assertThat(response.errorCode()).as("v%d", version).isEqualTo(Errors.NONE.code());
            PartitionData data = response.responses().get(0).partitions().get(0);
            assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(data.highWatermark()).isEqualTo(7);
            assertThat(((ByteBufferRecords) data.records()).buffer()).as("v%d records", version).isEqualTo(logBytes);
            if (version >= 13) {
                assertThat(response.responses().get(0).topicId()).isEqualTo(TOPIC_ID);
            } else {
                assertThat(response.responses().get(0).topic()).isEqualTo("wire");
            }
            if (version >= 7) {
                assertThat(response.sessionId()).as("a new session").isPositive();
            }
        }
    }

    private void send(short version, int correlationId, boolean byId) {
        FetchTopic topic = byId ? new FetchTopic().setTopicId(TOPIC_ID) : new FetchTopic().setTopic("wire");
        FetchRequestData request = new FetchRequestData().setMaxBytes(1 << 20).setMinBytes(1).setSessionEpoch(0)
                .setTopics(new ArrayList<>(List.of(topic.setPartitions(new ArrayList<>(List.of(
                        new FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20)))))));
        ByteBuffer header = ByteBufferWriter.serialize(new RequestHeaderData().setRequestApiKey(ApiKey.FETCH.id)
                .setRequestApiVersion(version).setCorrelationId(correlationId).setClientId("wire-test"),
                ApiKey.FETCH.requestHeaderVersion(version));
        ByteBuffer body = ByteBufferWriter.serialize(request, version);
        channel.writeInbound(Unpooled.buffer().writeInt(header.remaining() + body.remaining()).writeBytes(header)
                .writeBytes(body));
    }

    private FetchResponseData receive(short version, int correlationId) throws IOException {
        channel.runPendingTasks();
        ByteBuffer frame = ByteBuffer.wrap(OutboundPieces.bytesAndRelease(OutboundPieces.drain(channel)));
        assertThat(frame.getInt()).as("size field").isEqualTo(frame.remaining());
        ProtocolReader reader = new ProtocolReader(frame);
        assertThat(new ResponseHeaderData(reader, ApiKey.FETCH.responseHeaderVersion(version)).correlationId())
                .isEqualTo(correlationId);
        FetchResponseData response = new FetchResponseData();
        response.read(reader, version);
        assertThat(reader.remaining()).isZero();
        return response;
    }
}
