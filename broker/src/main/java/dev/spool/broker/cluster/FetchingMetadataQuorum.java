package dev.spool.broker.cluster;

import dev.spool.broker.client.NodeAddress;
import dev.spool.broker.client.NodeClients;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.log.record.RecordBatch;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeClusterRequestData;
import dev.spool.protocol.message.DescribeClusterResponseData;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchSnapshotRequestData;
import dev.spool.protocol.message.FetchSnapshotResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of a broker-only node of a cluster, which is no voter of the Raft quorum: as Kafka's brokers do,
 * it fetches {@code __cluster_metadata} from the controllers with Kafka's Fetch, appends the batches as they
 * came (offsets and epochs kept) to its own copy, and publishes each. A controller serves only what its quorum
 * has committed, so everything fetched is committed. A broker behind the start of the controllers' log is pointed
 * to their newest snapshot, which it reads with FetchSnapshot and starts over from. The copy is kept across restarts and replayed at start; the
 * fetching resumes at its end. It learns the controllers and which one is active from DescribeCluster on a
 * controller listener (KIP-919). It never proposes: {@link #propose} fails with {@link NotControllerException}.
 * Thread-safe: one fetcher thread appends and publishes.
 */
public final class FetchingMetadataQuorum implements MetadataQuorum {

    private static final Logger LOG = LoggerFactory.getLogger(FetchingMetadataQuorum.class);
    private static final short FETCH_VERSION = 12;
    private static final short DESCRIBE_CLUSTER_VERSION = 2;
    private static final short FETCH_SNAPSHOT_VERSION = 0;
    private static final byte CONTROLLER_ENDPOINTS = 2;
    /** How long a fetch waits at the controller for new metadata: the latency of a change reaching this broker. */
    private static final int MAX_WAIT_MS = 500;
    private static final int MAX_BYTES = 8 * 1024 * 1024;
    private static final long CONTROLLERS_REFRESH_MS = 2_000;
    private static final long RETRY_MS = 250;

    private final int nodeId;
    private final List<NodeAddress> bootstrap;
    private final MetadataLog log;
    private final NodeClients clients;
    /** Told when this broker cannot apply what it fetched: its image would part from the cluster's. */
    private final Runnable onFatal;
    private final Map<Integer, NodeAddress> controllers = new ConcurrentHashMap<>();
    private volatile CommitListener listener = (records, lastOffset) -> { };
    private volatile int activeControllerId = -1;
    private volatile boolean running;
    private Thread fetcher;

    /** A broker fetching from the controllers at {@code bootstrap} (their controller listeners). */
    public FetchingMetadataQuorum(int nodeId, List<NodeAddress> bootstrap, MetadataLog log, NodeClients clients,
                                  Runnable onFatal) {
        this.onFatal = onFatal;
        this.nodeId = nodeId;
        this.bootstrap = List.copyOf(bootstrap);
        this.log = log;
        this.clients = clients;
    }

    @Override
    public void setCommitListener(CommitListener listener) {
        this.listener = listener;
    }

    /**
     * The local copy after the snapshot loading started from; a copy that ends before that snapshot (a crash
     * between writing a fetched snapshot and starting the log over) starts over at it now.
     */
    @Override
    public void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) throws IOException {
        if (log.logEndOffset() <= afterOffset) {
            log.startAt(afterOffset + 1);
            return;
        }
        log.replay(afterOffset, consumer);
    }

    @Override
    public synchronized void start() {
        if (fetcher != null) {
            return;
        }
        running = true;
        fetcher = new Thread(this::fetchLoop, "spool-metadata-fetcher");
        fetcher.setDaemon(true);
        fetcher.start();
    }

    @Override
    public boolean isActiveController() {
        return false;
    }

    @Override
    public int activeControllerId() {
        return activeControllerId;
    }

    /** Where the controller {@code nodeId} is reached, as the controllers described themselves; null if unknown. */
    public NodeAddress controllerAddress(int controllerId) {
        return controllers.get(controllerId);
    }

    @Override
    public CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs) {
        return CompletableFuture.failedFuture(new NotControllerException(nodeId));
    }

    private void fetchLoop() {
        int next = 0;
        long controllersRefreshedNanos = 0;
        while (running) {
            NodeAddress source = sourceAfter(next);
            try {
                if (activeControllerId < 0
                        || System.nanoTime() - controllersRefreshedNanos > TimeUnit.MILLISECONDS.toNanos(CONTROLLERS_REFRESH_MS)) {
                    describeControllers(source);
                    controllersRefreshedNanos = System.nanoTime();
                }
                fetchFrom(source);
            } catch (InterruptedException e) {
                return;
            } catch (LocalFailure e) {
                LOG.error("Cannot apply the metadata fetched from {}: this broker stops", source, e.getCause());
                running = false;
                onFatal.run();
                return;
            } catch (Exception e) {
                if (running) {
                    LOG.debug("Fetching metadata from {} failed: {}", source, e.toString());
                    next++;
                    activeControllerId = -1;
                    sleepQuietly(RETRY_MS);
                }
            }
        }
    }

    /** The controller to fetch from: the active one when known, else the bootstrap addresses in turn. */
    private NodeAddress sourceAfter(int attempt) {
        NodeAddress active = controllers.get(activeControllerId);
        return active != null ? active : bootstrap.get(Math.floorMod(attempt, bootstrap.size()));
    }

    private void describeControllers(NodeAddress source) throws Exception {
        DescribeClusterResponseData response = clients.connection(source).<DescribeClusterResponseData>send(
                ApiKey.DESCRIBE_CLUSTER, DESCRIBE_CLUSTER_VERSION,
                new DescribeClusterRequestData().setEndpointType(CONTROLLER_ENDPOINTS))
                .get(10, TimeUnit.SECONDS);
        if (response.errorCode() != Errors.NONE.code()) {
            throw new IOException(source + " answered DescribeCluster with " + Errors.nameOf(response.errorCode()));
        }
        for (DescribeClusterResponseData.DescribeClusterBroker controller : response.brokers()) {
            controllers.put(controller.brokerId(), new NodeAddress(controller.host(), controller.port()));
        }
        activeControllerId = response.controllerId();
    }

    private void fetchFrom(NodeAddress source) throws Exception {
        long fetchOffset = log.logEndOffset();
        FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(MAX_WAIT_MS).setMinBytes(1)
                .setMaxBytes(MAX_BYTES).setSessionId(0).setSessionEpoch(-1)
                .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(MetadataLog.TOPIC)
                        .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0)
                                .setCurrentLeaderEpoch(-1).setFetchOffset(fetchOffset).setLogStartOffset(-1)
                                .setPartitionMaxBytes(MAX_BYTES)))));
        FetchResponseData response = clients.connection(source).<FetchResponseData>send(ApiKey.FETCH, FETCH_VERSION,
                request).get(MAX_WAIT_MS + 10_000L, TimeUnit.MILLISECONDS);
        if (response.errorCode() != Errors.NONE.code()) {
            throw new IOException(source + " answered Fetch with " + Errors.nameOf(response.errorCode()));
        }
        for (FetchResponseData.FetchableTopicResponse topic : response.responses()) {
            for (FetchResponseData.PartitionData partition : topic.partitions()) {
                if (partition.errorCode() != Errors.NONE.code()) {
                    throw new IOException(source + " answered the metadata fetch with "
                            + Errors.nameOf(partition.errorCode()));
                }
                if (partition.snapshotId().endOffset() >= 0) {
                    if (partition.snapshotId().endOffset() <= fetchOffset) {
                        // Never back to an older image than this broker has.
                        throw new IOException(source + " pointed to snapshot " + partition.snapshotId().endOffset()
                                + ", not past this broker's metadata offset " + fetchOffset);
                    }
                    // What this broker lacks is only in a snapshot now: it starts over from that.
                    installSnapshot(source, partition.snapshotId().endOffset(), partition.snapshotId().epoch());
                    continue;
                }
                if (partition.records() instanceof ByteBufferRecords records) {
                    appendAndPublish(records.buffer());
                }
            }
        }
    }

    /**
     * Reads the snapshot {@code endOffset}-{@code epoch} from {@code source} with FetchSnapshot, a piece at a time,
     * into this broker's metadata directory; then the metadata log starts over at its end, and the image is the
     * snapshot's.
     */
    private void installSnapshot(NodeAddress source, long endOffset, int epoch) throws Exception {
        Path snapshot = log.dir().resolve(MetadataSnapshot.fileName(endOffset, epoch));
        Path part = snapshot.resolveSibling(snapshot.getFileName() + ".part");
        try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long position = 0;
            long size;
            do {
                FetchSnapshotResponseData.PartitionSnapshot piece = fetchSnapshotPiece(source, endOffset, epoch,
                        position);
                size = piece.size();
                ByteBuffer bytes = ((ByteBufferRecords) piece.unalignedRecords()).buffer();
                if (!bytes.hasRemaining() && position < size) {
                    throw new IOException(source + " sent an empty piece of snapshot " + snapshot.getFileName());
                }
                while (bytes.hasRemaining()) {
                    position += out.write(bytes, position);
                }
            } while (position < size);
            out.force(true);
        }
        Files.move(part, snapshot, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try {
            MetadataImage installed = MetadataSnapshot.load(snapshot);
            log.startAt(endOffset);
            LOG.info("Installed metadata snapshot {} from {}: this broker was behind the start of the controllers' "
                    + "log", snapshot.getFileName(), source);
            listener.onReset(installed);
        } catch (IOException | RuntimeException e) {
            throw new LocalFailure(e);
        }
    }

    private FetchSnapshotResponseData.PartitionSnapshot fetchSnapshotPiece(NodeAddress source, long endOffset,
                                                                          int epoch, long position) throws Exception {
        FetchSnapshotRequestData request = new FetchSnapshotRequestData().setReplicaId(-1).setMaxBytes(MAX_BYTES)
                .setTopics(List.of(new FetchSnapshotRequestData.TopicSnapshot().setName(MetadataLog.TOPIC)
                        .setPartitions(List.of(new FetchSnapshotRequestData.PartitionSnapshot().setPartition(0)
                                .setCurrentLeaderEpoch(-1).setPosition(position)
                                .setSnapshotId(new FetchSnapshotRequestData.SnapshotId().setEndOffset(endOffset)
                                        .setEpoch(epoch))))));
        FetchSnapshotResponseData response = clients.connection(source).<FetchSnapshotResponseData>send(
                ApiKey.FETCH_SNAPSHOT, FETCH_SNAPSHOT_VERSION, request).get(30, TimeUnit.SECONDS);
        FetchSnapshotResponseData.PartitionSnapshot piece = response.topics().get(0).partitions().get(0);
        if (response.errorCode() != Errors.NONE.code() || piece.errorCode() != Errors.NONE.code()) {
            throw new IOException(source + " answered FetchSnapshot with "
                    + Errors.nameOf(response.errorCode() != Errors.NONE.code() ? response.errorCode() : piece.errorCode()));
        }
        return piece;
    }

    /** Appends the whole batches of {@code fetched} (a fetch may end inside one) and publishes each. */
    private void appendAndPublish(ByteBuffer fetched) throws IOException {
        int end = fetched.position() + RecordBatch.wholeBatchesLength(fetched);
        List<ByteBuffer> batches = new ArrayList<>();
        for (int start = fetched.position(); start < end; start += RecordBatch.sizeAt(fetched, start)) {
            batches.add(fetched.duplicate().position(start).limit(start + RecordBatch.sizeAt(fetched, start)).slice());
        }
        if (batches.isEmpty()) {
            return;
        }
        ByteBuffer whole = ByteBuffer.allocate(end - fetched.position());
        whole.put(fetched.duplicate().limit(end)).flip();
        try {
            log.appendFetched(whole);
            for (ByteBuffer batch : batches) {
                RecordBatch header = new RecordBatch().wrap(batch, 0);
                listener.onCommit(MetadataLog.decode(batch.duplicate()), header.lastOffset());
            }
        } catch (IOException | RuntimeException e) {
            throw new LocalFailure(e);
        }
    }

    /** Appending or applying what was fetched failed here, not at the controller: retrying cannot help. */
    private static final class LocalFailure extends RuntimeException {
        LocalFailure(Exception cause) {
            super(cause);
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Path snapshotDir() {
        return log.dir();
    }

    @Override
    public void deleteRecordsBefore(long offset) throws IOException {
        log.deleteRecordsBefore(offset);
    }

    @Override
    public void close() throws IOException {
        Thread running;
        synchronized (this) {
            this.running = false;
            running = fetcher;
        }
        if (running != null) {
            // Not interrupted: an interrupt inside the metadata log's file I/O would close its channel. A fetch
            // waits MAX_WAIT_MS at most, so the loop sees the flag soon.
            try {
                running.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        log.close();
    }
}
