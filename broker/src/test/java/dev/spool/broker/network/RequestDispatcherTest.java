package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ClusterHandler;
import dev.spool.broker.api.MetadataHandler;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.Endpoint;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsRequestData;
import dev.spool.protocol.message.ApiVersionsResponseData;
import dev.spool.protocol.message.ApiVersionsResponseData.ApiVersion;
import dev.spool.protocol.message.DescribeClusterRequestData;
import dev.spool.protocol.message.DescribeClusterResponseData;
import dev.spool.protocol.message.ListGroupsRequestData;
import dev.spool.protocol.message.ListGroupsResponseData;
import dev.spool.protocol.message.ListGroupsResponseData.ListedGroup;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataRequestData.MetadataRequestTopic;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.message.ResponseHeaderData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ProtocolReader;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RequestDispatcherTest {

    private static final ClusterView CLUSTER = new ClusterView("dispatcher-test-cluster", 1,
            List.of(new ClusterView.BrokerNode(1, new Endpoint("PLAINTEXT", "localhost", 9092), null)));
    /** Served by {@link #parkingHandler}, so that the test decides when and in which order requests are answered. */
    private static final ApiKey PARKED_API = ApiKey.LIST_GROUPS;
    private static final short PARKED_VERSION = 4;

    private final Map<Integer, CompletableFuture<Message>> parked = new HashMap<>();
    private final ApiHandler parkingHandler = (context, request) -> {
        CompletableFuture<Message> answer = new CompletableFuture<>();
        parked.put(context.correlationId(), answer);
        return answer;
    };

    private final ApiRegistry registry = new ApiRegistry();
    private final ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
    private final TrackingAllocator allocator = new TrackingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel();

    @BeforeEach
    void pipeline() {
        registry.register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, apiVersions)
                .register(ApiKey.METADATA, 0, ApiKey.METADATA.highestVersion, new MetadataHandler(() -> CLUSTER, () -> MetadataImage.EMPTY, null))
                .register(ApiKey.DESCRIBE_CLUSTER, 0, ApiKey.DESCRIBE_CLUSTER.highestVersion,
                        new ClusterHandler(() -> CLUSTER))
                .register(PARKED_API, 0, PARKED_API.highestVersion, parkingHandler);
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new FrameDecoder(1 << 20), new RequestDispatcher(registry, apiVersions));
    }

    @AfterEach
    void everyBufferIsReleased() {
        assertThat(channel.finishAndReleaseAll()).as("responses left unread by the test").isFalse();
        assertThat(allocator.unreleased()).isEmpty();
    }

    @Test
    void responsesComeBackInRequestOrderWhenCompletedOutOfOrder() {
        ByteBuf first = send(PARKED_API, PARKED_VERSION, 1, new ListGroupsRequestData());
        ByteBuf second = send(ApiKey.API_VERSIONS, (short) 3, 2, new ApiVersionsRequestData());
        ByteBuf third = send(PARKED_API, PARKED_VERSION, 3, new ListGroupsRequestData());
        assertThat(parked).containsOnlyKeys(1, 3);
        assertThat((Object) channel.readOutbound()).as("ApiVersions waits behind the parked request").isNull();
        assertThat(first.refCnt()).as("a request frame is held until its answer").isPositive();
        assertThat(third.refCnt()).isPositive();
        assertThat(second.refCnt()).as("an answered request frame is released").isZero();

        parked.get(3).complete(new ListGroupsResponseData().setThrottleTimeMs(3));
        assertThat((Object) channel.readOutbound()).as("the third answer waits for the first").isNull();
        parked.get(1).complete(new ListGroupsResponseData().setThrottleTimeMs(1));

        assertThat(readResponse(PARKED_API, PARKED_VERSION, 1, new ListGroupsResponseData()).throttleTimeMs()).isEqualTo(1);
        assertThat(readResponse(ApiKey.API_VERSIONS, (short) 3, 2, new ApiVersionsResponseData()).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(readResponse(PARKED_API, PARKED_VERSION, 3, new ListGroupsResponseData()).throttleTimeMs()).isEqualTo(3);
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void apiVersionsAtEveryVersionListsExactlyTheRegistry() {
        List<ApiVersion> expected = new ArrayList<>();
        for (ApiRegistry.RegisteredApi api : registry.all()) {
            expected.add(new ApiVersion().setApiKey(api.apiKey().id)
                    .setMinVersion(api.minVersion()).setMaxVersion(api.maxVersion()));
        }
        for (short version = 0; version <= ApiKey.API_VERSIONS.highestVersion; version++) {
            send(ApiKey.API_VERSIONS, version, 100 + version, new ApiVersionsRequestData()
                    .setClientSoftwareName("spool-test").setClientSoftwareVersion("1.0"));

            ApiVersionsResponseData response = readResponse(ApiKey.API_VERSIONS, version, 100 + version,
                    new ApiVersionsResponseData());

            assertThat(response.errorCode()).as("v%d error", version).isEqualTo(Errors.NONE.code());
            assertThat(response.apiKeys()).as("v%d api keys", version).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void apiVersionsOfAnUnknownHighVersionAnswersVersionZeroWithUnsupportedVersion() {
        short unknownVersion = (short) (ApiKey.API_VERSIONS.highestVersion + 1);
        ByteBuffer newerBody = ByteBufferWriter.serialize(new ApiVersionsRequestData()
                .setClientSoftwareName("future-client").setClientSoftwareVersion("9.9"), ApiKey.API_VERSIONS.highestVersion);
        send(ApiKey.API_VERSIONS.id, unknownVersion, (short) 2, 7, newerBody);

        ApiVersionsResponseData response = readResponseWithHeader((short) 0, (short) 0, 7, new ApiVersionsResponseData());

        assertThat(response.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code()).isEqualTo((short) 35);
        assertThat(response.apiKeys()).containsExactly(new ApiVersion().setApiKey(ApiKey.API_VERSIONS.id)
                .setMinVersion((short) 0).setMaxVersion(ApiKey.API_VERSIONS.highestVersion));
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void metadataAnswersTheClusterAndUnknownTopics() {
        short version = ApiKey.METADATA.highestVersion;
        send(ApiKey.METADATA, version, 11, new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestTopic().setName("missing"))));

        MetadataResponseData response = readResponse(ApiKey.METADATA, version, 11, new MetadataResponseData());

        assertThat(response.clusterId()).isEqualTo(CLUSTER.clusterId());
        assertThat(response.brokers()).singleElement().satisfies(broker -> {
            assertThat(broker.nodeId()).isEqualTo(1);
            assertThat(broker.host()).isEqualTo("localhost");
            assertThat(broker.port()).isEqualTo(9092);
        });
        assertThat(response.topics()).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("missing");
            assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        });
    }

    @Test
    void flexibleResponseHasHeaderVersionOneWithATaggedFieldsByte() {
        short flexible = 9;
        send(ApiKey.METADATA, flexible, 21, new MetadataRequestData());
        send(ApiKey.DESCRIBE_CLUSTER, (short) 0, 22, new DescribeClusterRequestData());

        assertThat(readResponseWithHeader((short) 1, flexible, 21, new MetadataResponseData()).clusterId())
                .isEqualTo(CLUSTER.clusterId());
        assertThat(readResponseWithHeader((short) 1, (short) 0, 22, new DescribeClusterResponseData()).clusterId())
                .isEqualTo(CLUSTER.clusterId());
    }

    @Test
    void nonFlexibleResponseHasHeaderVersionZero() {
        short nonFlexible = 8;
        send(ApiKey.METADATA, nonFlexible, 31, new MetadataRequestData());

        assertThat(readResponseWithHeader((short) 0, nonFlexible, 31, new MetadataResponseData()).clusterId())
                .isEqualTo(CLUSTER.clusterId());
    }

    @Test
    void apiVersionsResponseHasHeaderVersionZeroEvenWhenFlexible() {
        short flexible = 3;
        send(ApiKey.API_VERSIONS, flexible, 41, new ApiVersionsRequestData());

        assertThat(readResponseWithHeader((short) 0, flexible, 41, new ApiVersionsResponseData()).errorCode())
                .isEqualTo(Errors.NONE.code());
    }

    @Test
    void unknownApiKeyClosesTheChannel() {
        send((short) 1000, (short) 0, (short) 1, 1, ByteBuffer.allocate(0));

        assertClosedWithoutAnswer();
    }

    @Test
    void unregisteredApiClosesTheChannel() {
        send(ApiKey.PRODUCE.id, ApiKey.PRODUCE.highestVersion, (short) 2, 1, ByteBuffer.allocate(16));

        assertClosedWithoutAnswer();
    }

    @Test
    void unsupportedVersionClosesTheChannel() {
        short beyondTheSpec = (short) (ApiKey.METADATA.highestVersion + 1);
        send(ApiKey.METADATA.id, beyondTheSpec, (short) 2, 1,
                ByteBufferWriter.serialize(new MetadataRequestData(), ApiKey.METADATA.highestVersion));

        assertClosedWithoutAnswer();
    }

    @Test
    void truncatedBodyClosesTheChannel() {
        short version = ApiKey.METADATA.highestVersion;
        ByteBuffer body = ByteBufferWriter.serialize(new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestTopic().setName("orders"))), version);
        body.limit(body.limit() - 3);
        send(ApiKey.METADATA.id, version, ApiKey.METADATA.requestHeaderVersion(version), 1, body);

        assertClosedWithoutAnswer();
    }

    @Test
    void truncatedHeaderClosesTheChannel() {
        channel.writeInbound(allocator.buffer().writeInt(6)
                .writeShort(ApiKey.METADATA.id).writeShort(12).writeShort(0));

        assertClosedWithoutAnswer();
    }

    @Test
    void frameTooShortForApiKeyAndVersionClosesTheChannel() {
        channel.writeInbound(allocator.buffer().writeInt(3).writeMedium(0));

        assertClosedWithoutAnswer();
    }

    @Test
    void requestsAfterAFatalOneInTheSameReadAreNotAnswered() {
        ByteBuf stream = allocator.buffer();
        appendFrame(stream, (short) 1000, (short) 0, (short) 1, 1, ByteBuffer.allocate(0));
        appendFrame(stream, ApiKey.API_VERSIONS.id, (short) 0, (short) 1, 2,
                ByteBufferWriter.serialize(new ApiVersionsRequestData(), (short) 0));
        channel.writeInbound(stream);

        assertClosedWithoutAnswer();
    }

    @Test
    void failedHandlerFutureClosesTheChannel() {
        ByteBuf request = send(PARKED_API, PARKED_VERSION, 1, new ListGroupsRequestData());

        parked.get(1).completeExceptionally(new IllegalStateException("handler bug"));

        assertThat(request.refCnt()).as("the request frame is released on failure").isZero();
        assertClosedWithoutAnswer();
    }

    @Test
    void failedHandlerFutureDropsTheAnswersQueuedBehindIt() {
        send(PARKED_API, PARKED_VERSION, 1, new ListGroupsRequestData());
        send(PARKED_API, PARKED_VERSION, 2, new ListGroupsRequestData());
        send(PARKED_API, PARKED_VERSION, 3, new ListGroupsRequestData());
        parked.get(2).complete(new ListGroupsResponseData());

        parked.get(1).completeExceptionally(new IllegalStateException("handler bug"));
        parked.get(3).complete(new ListGroupsResponseData());

        assertClosedWithoutAnswer();
    }

    @Test
    void responseThatCannotBeWrittenClosesTheChannel() {
        send(PARKED_API, PARKED_VERSION, 1, new ListGroupsRequestData());
        send(PARKED_API, PARKED_VERSION, 2, new ListGroupsRequestData());
        parked.get(2).complete(new ListGroupsResponseData());

        parked.get(1).complete(new ListGroupsResponseData().setGroups(List.of(new ListedGroup().setGroupId(null))));

        assertClosedWithoutAnswer();
    }

    @Test
    void requestSplitAcrossReadsIsAnswered() {
        ByteBuf stream = appendFrame(allocator.buffer(), ApiKey.API_VERSIONS.id, (short) 3, (short) 2, 51,
                ByteBufferWriter.serialize(new ApiVersionsRequestData(), (short) 3));
        channel.writeInbound(stream.readRetainedSlice(5));
        assertThat((Object) channel.readOutbound()).isNull();
        channel.writeInbound(stream.readRetainedSlice(stream.readableBytes()));
        stream.release();

        assertThat(readResponse(ApiKey.API_VERSIONS, (short) 3, 51, new ApiVersionsResponseData()).errorCode())
                .isEqualTo(Errors.NONE.code());
    }

    private void assertClosedWithoutAnswer() {
        channel.runPendingTasks();
        assertThat(channel.isOpen()).as("channel open").isFalse();
        assertThat((Object) channel.readOutbound()).as("response").isNull();
    }

    /** Sends one request frame with the header version the API uses at this version; returns the frame's buffer. */
    private ByteBuf send(ApiKey apiKey, short version, int correlationId, Message body) {
        return send(apiKey.id, version, apiKey.requestHeaderVersion(version), correlationId,
                ByteBufferWriter.serialize(body, version));
    }

    private ByteBuf send(short apiKeyId, short version, short headerVersion, int correlationId, ByteBuffer body) {
        ByteBuf frame = appendFrame(allocator.buffer(), apiKeyId, version, headerVersion, correlationId, body);
        channel.writeInbound(frame);
        return frame;
    }

    private static ByteBuf appendFrame(ByteBuf stream, short apiKeyId, short version, short headerVersion,
                                       int correlationId, ByteBuffer body) {
        ByteBuffer header = ByteBufferWriter.serialize(new RequestHeaderData()
                .setRequestApiKey(apiKeyId)
                .setRequestApiVersion(version)
                .setCorrelationId(correlationId)
                .setClientId("dispatcher-test"), headerVersion);
        return stream.writeInt(header.remaining() + body.remaining()).writeBytes(header).writeBytes(body);
    }

    /** Reads the next response, whose header version is the one the API uses at this version. */
    private <T extends Message> T readResponse(ApiKey apiKey, short version, int correlationId, T body) {
        return readResponseWithHeader(apiKey.responseHeaderVersion(version), version, correlationId, body);
    }

    /**
     * Reads the next response frame, releasing it: checks its size field and correlation id, and that
     * header and body of the given versions take up the frame exactly.
     */
    private <T extends Message> T readResponseWithHeader(short headerVersion, short version, int correlationId,
                                                         T body) {
        ByteBuf frame = channel.readOutbound();
        assertThat(frame).as("response #%d", correlationId).isNotNull();
        ByteBuffer bytes = ByteBuffer.allocate(frame.readableBytes() - 4);
        try {
            assertThat(frame.readInt()).as("size field").isEqualTo(frame.readableBytes());
            frame.readBytes(bytes);
        } finally {
            frame.release();
        }
        ProtocolReader reader = new ProtocolReader(bytes.flip());
        assertThat(new ResponseHeaderData(reader, headerVersion).correlationId()).isEqualTo(correlationId);
        body.read(reader, version);
        assertThat(reader.remaining()).as("bytes after the body").isZero();
        return body;
    }
}
