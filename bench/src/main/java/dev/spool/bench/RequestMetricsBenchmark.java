package dev.spool.bench;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metrics.RequestMetrics;
import dev.spool.broker.network.RequestObserver;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.ByteBuffer;
import java.util.List;
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
 * Not thread-safe (one benchmark thread): what the request metrics cost the event loop per answered
 * request, against the no-op observer the dispatcher had before: a Metadata request (count and
 * latency) and a Produce of one 16-record batch (plus bytes and messages in for its topic). Run with
 * {@code -prof gc} to see the allocation per operation.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestMetricsBenchmark {

    private final RequestObserver none = RequestObserver.NONE;
    private RequestMetrics metrics;
    private RequestContext metadataContext;
    private MetadataRequestData metadataRequest;
    private MetadataResponseData metadataResponse;
    private RequestContext produceContext;
    private ProduceRequestData produceRequest;
    private ProduceResponseData produceResponse;
    private long latencyNanos = 250_000;

    @Setup
    public void setUp() {
        metrics = RequestMetrics.create(new PrometheusRegistry(), () -> MetadataImage.EMPTY);
        metadataContext = new RequestContext(ApiKey.METADATA, (short) 12, 1, "bench", null);
        metadataRequest = new MetadataRequestData();
        metadataResponse = new MetadataResponseData();
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        for (int i = 0; i < 16; i++) {
            builder.append(1_700_000_000_000L + i, null, new byte[100]);
        }
        ByteBuffer batch = builder.build();
        produceContext = new RequestContext(ApiKey.PRODUCE, (short) 11, 1, "bench", null);
        produceRequest = new ProduceRequestData().setTopicData(List.of(new ProduceRequestData.TopicProduceData()
                .setName("orders").setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                        .setRecords(new ByteBufferRecords(batch))))));
        produceResponse = new ProduceResponseData().setResponses(List.of(new ProduceResponseData.TopicProduceResponse()
                .setName("orders").setPartitionResponses(List.of(
                        new ProduceResponseData.PartitionProduceResponse().setIndex(0)))));
    }

    @Benchmark
    public void metadataWithoutMetrics() {
        none.onAnswered(metadataContext, metadataRequest, metadataResponse, latencyNanos++);
    }

    @Benchmark
    public void metadataWithMetrics() {
        metrics.onAnswered(metadataContext, metadataRequest, metadataResponse, latencyNanos++);
    }

    @Benchmark
    public void produceWithMetrics() {
        metrics.onAnswered(produceContext, produceRequest, produceResponse, latencyNanos++);
    }
}
