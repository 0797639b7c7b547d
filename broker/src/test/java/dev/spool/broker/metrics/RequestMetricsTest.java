package dev.spool.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestMetricsTest {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RequestMetrics metrics = new RequestMetrics(registry,
            new TopicTrafficMetrics(registry, () -> MetadataImage.EMPTY));

    @Test
    void countsRequestsAndLatencyPerApi() throws IOException {
        metrics.onAnswered(context(ApiKey.METADATA), new MetadataRequestData(), new MetadataResponseData(), 2_000_000);
        metrics.onAnswered(context(ApiKey.METADATA), new MetadataRequestData(), new MetadataResponseData(), 4_000_000);

        String text = scrape();
        assertThat(text).contains("kafka_network_requestmetrics_requests_total{request=\"Metadata\"} 2.0")
                .contains("kafka_network_requestmetrics_total_time_seconds_count{request=\"Metadata\"} 2")
                .contains("kafka_network_requestmetrics_total_time_seconds_sum{request=\"Metadata\"} 0.006")
                .doesNotContain("request=\"Produce\"");
    }

    @Test
    void countsBytesAndMessagesInOnlyForPartitionsAppended() throws IOException {
        ByteBuffer batches = twoBatches();
        int size = batches.remaining();
        ProduceRequestData request = new ProduceRequestData().setTopicData(List.of(
                new ProduceRequestData.TopicProduceData().setName("orders").setPartitionData(List.of(
                        new ProduceRequestData.PartitionProduceData().setIndex(0)
                                .setRecords(new ByteBufferRecords(batches.duplicate())),
                        new ProduceRequestData.PartitionProduceData().setIndex(1)
                                .setRecords(new ByteBufferRecords(batches.duplicate()))))));
        ProduceResponseData response = new ProduceResponseData().setResponses(List.of(
                new ProduceResponseData.TopicProduceResponse().setName("orders").setPartitionResponses(List.of(
                        new ProduceResponseData.PartitionProduceResponse().setIndex(0),
                        new ProduceResponseData.PartitionProduceResponse().setIndex(1)
                                .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())))));

        metrics.onAnswered(context(ApiKey.PRODUCE), request, response, 1_000);

        assertThat(scrape()).contains("kafka_server_brokertopicmetrics_bytes_in_total{topic=\"orders\"} " + size + ".0")
                .contains("kafka_server_brokertopicmetrics_messages_in_total{topic=\"orders\"} 5.0");
    }

    @Test
    void countsBytesOutOfFetchResponses() throws IOException {
        ByteBuffer batches = twoBatches();
        FetchResponseData response = new FetchResponseData().setResponses(List.of(
                new FetchResponseData.FetchableTopicResponse().setTopic("orders").setPartitions(List.of(
                        new FetchResponseData.PartitionData().setPartitionIndex(0)
                                .setRecords(new ByteBufferRecords(batches))))));

        metrics.onAnswered(context(ApiKey.FETCH), null, response, 1_000);

        assertThat(scrape()).contains("kafka_server_brokertopicmetrics_bytes_out_total{topic=\"orders\"} "
                + batches.remaining() + ".0");
    }

    @Test
    void countsOpenConnections() throws IOException {
        metrics.onConnectionOpened();
        metrics.onConnectionOpened();
        metrics.onConnectionClosed(null);

        assertThat(scrape()).contains("kafka_server_socket_server_metrics_connection_count 1.0");
    }

    private static ByteBuffer twoBatches() {
        ByteBuffer first = new RecordBatchBuilder(CompressionType.NONE).append(1L, null, new byte[10])
                .append(2L, null, new byte[10]).build();
        ByteBuffer second = new RecordBatchBuilder(CompressionType.NONE).append(1L, null, new byte[10])
                .append(2L, null, new byte[10]).append(3L, null, new byte[10]).build();
        ByteBuffer both = ByteBuffer.allocate(first.remaining() + second.remaining());
        both.put(first).put(second).flip();
        return both;
    }

    private static RequestContext context(ApiKey key) {
        return new RequestContext(key, key.highestVersion, 1, "test", null);
    }

    private String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}
