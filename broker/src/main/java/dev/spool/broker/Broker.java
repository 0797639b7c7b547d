package dev.spool.broker;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.config.ListenerSasl;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.network.NetworkTransport;
import dev.spool.broker.network.ServerTls;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running broker: its identity, metadata, partitions, API handlers and listeners. Built by
 * {@link #start}, stopped by {@link #close}. Thread-safe.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private final Closer layers;
    private final List<Endpoint> boundEndpoints;
    private final ClusterView cluster;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Broker(Closer layers, List<Endpoint> boundEndpoints, ClusterView cluster) {
        this.layers = layers;
        this.boundEndpoints = boundEndpoints;
        this.cluster = cluster;
    }

    /** Starts a broker that closes itself if every log dir fails (or the metadata log's). */
    public static Broker start(BrokerConfig config) throws IOException, InterruptedException {
        return start(config, null);
    }

    /**
     * Starts a broker; {@code fatalErrorHandler} is told when it cannot go on (null: the broker closes
     * itself).
     */
    public static Broker start(BrokerConfig config, FatalErrorHandler fatalErrorHandler)
            throws IOException, InterruptedException {
        AtomicReference<Broker> started = new AtomicReference<>();
        FatalErrorHandler onFatal = fatalErrorHandler != null ? fatalErrorHandler : reason -> {
            Broker broker = started.get();
            if (broker != null) {
                broker.close();
            }
        };
        Broker broker = startWith(config, onFatal);
        started.set(broker);
        return broker;
    }

    /**
     * Starts the layers bottom up, each over the ones below it: storage, metadata, partitions, coordinators,
     * APIs, network. They close in the reverse order, and so does whatever started before a start failed.
     */
    private static Broker startWith(BrokerConfig config, FatalErrorHandler onFatal)
            throws IOException, InterruptedException {
        long startNanos = System.nanoTime();
        Map<String, ListenerSasl> sasl = NetworkLayer.saslOf(config);
        Map<String, ServerTls> tls = NetworkLayer.tlsOf(config);
        Closer closer = new Closer();
        // The event loops start while the logs recover; waiting for a transport still starting (~40 ms at
        // most) on close means that a failed start leaves no event loop running.
        CompletableFuture<NetworkTransport> transport = NetworkTransport.startInBackground(config.numNetworkThreads());
        AutoCloseable startingTransport = closer.register(() -> transport.join().close());
        try {
            StorageLayer storage = closer.register(StorageLayer.open(config, onFatal));
            MetadataLayer metadata = closer.register(MetadataLayer.load(config, storage, onFatal));
            PartitionLayer partitions = closer.register(PartitionLayer.start(config, storage, metadata));
            CoordinatorLayer coordinators = closer.register(
                    CoordinatorLayer.start(config, storage, metadata, partitions));
            // Closed after the listeners and before the coordinators and partitions: metadata still committing
            // (a cluster's) must not open or delete logs under a closing broker.
            closer.register(metadata.metadata::stopPublishing);
            ApiLayer apis = ApiLayer.build(config, storage, metadata, partitions, coordinators);
            NetworkLayer network = closer.register(NetworkLayer.start(config, storage, metadata, partitions,
                    coordinators, apis, transport.join(), tls, sasl));
            closer.handOver(startingTransport);
            // A controller-only node registers no broker: no partition is placed on it, no client sent to it.
            MetadataLayer.Registration registration = config.cluster().isBroker()
                    ? metadata.register(network.advertised, storage.logs.previousBrokerEpoch()) : null;
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            if (registration != null) {
                // Unfenced: caught up with the metadata, so it leads what the image says it leads, and loads the
                // group shards it leads (their image came while it led nothing).
                partitions.partitions.markCaughtUp();
                coordinators.groups.onImage(MetadataImage.EMPTY, metadata.metadata.image());
                // Written into the clean-shutdown markers: the next start tells the controller it shut down cleanly.
                storage.logs.brokerEpoch(registration.brokerEpoch());
                // Closed first: a broker of a cluster asks to be fenced while it still serves.
                closer.register(registration.lifecycle());
                LOG.info("Spool broker {} of cluster {} started in {} ms, listening on {}, advertising {} (broker "
                        + "epoch {})", config.nodeId(), storage.meta.clusterId(), elapsedMs, network.bound,
                        network.advertised.get(0), registration.brokerEpoch());
            } else {
                LOG.info("Spool controller {} of cluster {} started in {} ms, listening on {}", config.nodeId(),
                        storage.meta.clusterId(), elapsedMs, network.bound);
            }
            return new Broker(closer, network.bound, metadata.cluster());
        } catch (IOException | RuntimeException | InterruptedException | Error e) {
            closer.close();
            throw e;
        }
    }

    public List<Endpoint> boundEndpoints() {
        return boundEndpoints;
    }

    public ClusterView cluster() {
        return cluster;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LOG.info("Spool broker shutting down");
        layers.close();
        LOG.info("Spool broker stopped");
    }
}
