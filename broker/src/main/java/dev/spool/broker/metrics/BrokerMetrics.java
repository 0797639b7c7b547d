package dev.spool.broker.metrics;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.group.GroupCoordinator;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataListener;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.cleaner.CleanerStats;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: the broker's metrics and, when {@code metrics.listener} is set, the HTTP endpoint Prometheus
 * scrapes ({@code /metrics}). Each broker has its own registry, so several embedded brokers in one JVM do not
 * share counters. Design note: the Prometheus Java client (not Micrometer) because Prometheus is the only
 * target, its label model is the one the names here follow, and it brings its own small HTTP server on the
 * JDK's; Micrometer would add a translation layer and still need both.
 */
public final class BrokerMetrics implements MetadataListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerMetrics.class);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RequestMetrics requests;
    private final TopicTrafficMetrics topics;
    private HTTPServer server;

    public BrokerMetrics(Supplier<MetadataImage> image, PartitionManager partitions, GroupCoordinator groups,
                         CleanerStats cleaner) {
        this.topics = new TopicTrafficMetrics(registry, image);
        this.requests = new RequestMetrics(registry, topics);
        PartitionMetrics.register(registry, partitions);
        GroupLagMetrics.register(registry, groups, partitions);
        CleanerMetrics.register(registry, cleaner);
    }

    /** What the network layer tells of requests and connections. */
    public RequestMetrics requests() {
        return requests;
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** Serves {@code /metrics} on the endpoint; returns the endpoint bound (port 0 becomes the chosen port). */
    public synchronized Endpoint serve(Endpoint endpoint) throws IOException {
        // Only when served: registering the JVM metrics takes ~400 ms of class loading in a cold JVM,
        // which an embedded broker in a test should not pay for metrics nobody reads.
        JvmMetrics.builder().register(registry);
        try {
            server = HTTPServer.builder().hostname(endpoint.host()).port(endpoint.port()).registry(registry)
                    .buildAndStart();
        } catch (IOException | RuntimeException e) {
            throw new IOException("Cannot serve metrics on " + BrokerConfig.METRICS_LISTENER.name() + " "
                    + endpoint.host() + ":" + endpoint.port() + ": " + e, e);
        }
        Endpoint bound = endpoint.withPort(server.getPort());
        LOG.info("Metrics endpoint listening on http://{}:{}/metrics", bound.host(), bound.port());
        return bound;
    }

    /** Drops the traffic counters of deleted topics. */
    @Override
    public void onImage(MetadataImage previous, MetadataImage current) {
        if (previous == null) {
            return;
        }
        for (TopicImage topic : previous.topics()) {
            if (current.topic(topic.name()) == null) {
                topics.forget(topic.name());
            }
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
