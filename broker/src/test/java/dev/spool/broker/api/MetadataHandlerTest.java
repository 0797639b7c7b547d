package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Uuid;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetadataHandlerTest {

    private static final ClusterView CLUSTER = new ClusterView("metadata-test", 1,
            List.of(new ClusterView.BrokerNode(1, new Endpoint("PLAINTEXT", "localhost", 9092), null)));

    private final MetadataHandler handler = new MetadataHandler(() -> CLUSTER, () -> MetadataImage.EMPTY, null);

    private MetadataResponseData ask(short version, MetadataRequestData.MetadataRequestTopic topic) {
        return (MetadataResponseData) handler.handle(new RequestContext(ApiKey.METADATA, version, 1, "test", null),
                new MetadataRequestData().setTopics(List.of(topic))).join();
    }

    @Test
    void askingByTopicIdBeforeVersion12IsAnInvalidRequestThatCanBeWritten() {
        for (short version = 10; version <= 11; version++) {
            MetadataResponseData response = ask(version,
                    new MetadataRequestData.MetadataRequestTopic().setName(null).setTopicId(Uuid.randomUuid()));
            assertThat(response.topics()).singleElement().satisfies(topic -> {
                assertThat(topic.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
                assertThat(topic.name()).isEmpty();
            });
            ByteBuffer buffer = ByteBuffer.allocate(response.size(version));
            response.write(new ByteBufferWriter(buffer), version);
            assertThat(buffer.hasRemaining()).isFalse();
        }
    }

    @Test
    void fromVersion12AnUnknownTopicIdIsUnknownTopicId() {
        MetadataResponseData response = ask((short) 12,
                new MetadataRequestData.MetadataRequestTopic().setName(null).setTopicId(Uuid.randomUuid()));
        assertThat(response.topics()).singleElement()
                .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code()));
    }

    /** Kafka's Java client asks by id with the name left at its default, empty (the consumer protocol does, by regex). */
    @Test
    void anEmptyNameBesideATopicIdAsksById() {
        MetadataResponseData response = ask((short) 12,
                new MetadataRequestData.MetadataRequestTopic().setName("").setTopicId(Uuid.randomUuid()));
        assertThat(response.topics()).singleElement()
                .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code()));
    }
}
