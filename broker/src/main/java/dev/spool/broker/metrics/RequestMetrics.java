package dev.spool.broker.metrics;

import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.network.RequestObserver;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.Message;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.net.SocketAddress;

/**
 * Thread-safe: requests and their latency per API (Kafka's RequestMetrics RequestsPerSec and TotalTimeMs), open
 * connections, and the per-topic traffic of Produce and Fetch. The data points of an API are made on its first
 * request and kept in arrays indexed by API key id, so observing a request is an array read, a counter increment
 * and a histogram observation: no allocation, no map lookup.
 */
public final class RequestMetrics implements RequestObserver {

    private static final double NANOS_PER_SECOND = 1e9;
    /** Latency buckets from 0.1 ms to 10 s: one broker answers most requests in well under 1 ms. */
    private static final double[] LATENCY_BUCKETS_SECONDS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
        0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final Counter requests;
    private final Histogram latency;
    /** Made on an API's first request (so unused APIs print nothing); a racing duplicate is the same point. */
    private final CounterDataPoint[] requestsByApi;
    private final DistributionDataPoint[] latencyByApi;
    private final Gauge connections;
    private final TopicTrafficMetrics topics;

    RequestMetrics(PrometheusRegistry registry, TopicTrafficMetrics topics) {
        this.topics = topics;
        Counter requestCounter = Counter.builder().name("kafka_network_requestmetrics_requests")
                .help("Requests answered, per API (Kafka's RequestsPerSec).")
                .labelNames("request").withoutExemplars().register(registry);
        Histogram latencyHistogram = Histogram.builder().name("kafka_network_requestmetrics_total_time_seconds")
                .unit(Unit.SECONDS)
                .help("Time from a request's arrival to its answer, per API (Kafka's TotalTimeMs).")
                .labelNames("request").classicOnly().classicUpperBounds(LATENCY_BUCKETS_SECONDS).withoutExemplars()
                .register(registry);
        this.connections = Gauge.builder().name("kafka_server_socket_server_metrics_connection_count")
                .help("Open client connections.").withoutExemplars().register(registry);
        this.requests = requestCounter;
        this.latency = latencyHistogram;
        int maxId = 0;
        for (ApiKey key : ApiKey.values()) {
            maxId = Math.max(maxId, key.id);
        }
        requestsByApi = new CounterDataPoint[maxId + 1];
        latencyByApi = new DistributionDataPoint[maxId + 1];
    }

    /** Request metrics on their own registry (tests, benchmarks); a broker gets them from {@link BrokerMetrics}. */
    public static RequestMetrics create(PrometheusRegistry registry, java.util.function.Supplier<MetadataImage> image) {
        return new RequestMetrics(registry, new TopicTrafficMetrics(registry, image));
    }

    @Override
    public void onConnectionOpened() {
        connections.inc();
    }

    @Override
    public void onConnectionClosed(SocketAddress peer) {
        connections.dec();
    }

    @Override
    public void onAnswered(RequestContext context, Message request, Message response, long latencyNanos) {
        ApiKey key = context.apiKey();
        CounterDataPoint count = requestsByApi[key.id];
        DistributionDataPoint time = latencyByApi[key.id];
        if (count == null || time == null) {
            count = requests.labelValues(key.displayName);
            time = latency.labelValues(key.displayName);
            requestsByApi[key.id] = count;
            latencyByApi[key.id] = time;
        }
        count.inc();
        time.observe(latencyNanos / NANOS_PER_SECOND);
        if (key == ApiKey.PRODUCE && response != null) {
            topics.onProduce((ProduceRequestData) request, (ProduceResponseData) response);
        } else if (key == ApiKey.FETCH && response != null) {
            topics.onFetch((FetchResponseData) response);
        }
    }
}
