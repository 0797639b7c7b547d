package dev.spool.broker.metadata;

import dev.spool.log.LogClock;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A broker's metadata, assembled: the {@link MetadataController} that decides changes, the
 * {@link MetadataQuorum} that commits their records (the local log here), and the {@link MetadataPublisher}
 * that applies what is committed and tells the listeners. What request handlers and components use:
 * {@link #submit}, {@link #image}, {@link #addListener}. Thread-safe.
 */
public final class MetadataManager implements AutoCloseable {

    private final MetadataQuorum quorum;
    private final MetadataPublisher publisher;
    private final MetadataController controller;

    /**
     * Metadata kept in the local log.
     *
     * @param snapshotIntervalRecords records appended after which the image is snapshotted and the log
     *                                before the snapshot deleted
     */
    public MetadataManager(MetadataLog log, LogClock clock, long snapshotIntervalRecords) {
        this(-1, new LocalMetadataQuorum(log), clock, snapshotIntervalRecords);
    }

    /** Metadata of node {@code nodeId} committed by {@code quorum}. */
    public MetadataManager(int nodeId, MetadataQuorum quorum, LogClock clock, long snapshotIntervalRecords) {
        this.quorum = quorum;
        this.publisher = new MetadataPublisher(quorum, clock, snapshotIntervalRecords);
        this.controller = new MetadataController(nodeId, quorum, publisher::image, clock);
        quorum.setCommitListener(publisher);
        quorum.setImageSource(publisher::image);
    }

    /** Loads the newest snapshot and replays the log after it. Call once, before listeners are added. */
    public void load() throws IOException {
        publisher.load();
        quorum.start();
    }

    /** Adds a listener and tells it of the current image (as a change from the empty one). */
    public void addListener(MetadataListener listener) {
        publisher.addListener(listener);
    }

    /** The latest committed image; safe to read from any thread. */
    public MetadataImage image() {
        return publisher.image();
    }

    /** See {@link MetadataPublisher#stopPublishing}. */
    public void stopPublishing() {
        publisher.stopPublishing();
    }

    /** The quorum that commits this node's metadata: who the active controller is, and its epoch. */
    public MetadataQuorum quorum() {
        return quorum;
    }

    /** See {@link MetadataController#submit}. */
    public <T> CompletableFuture<T> submit(Function<MetadataImage, MetadataChange<T>> command) {
        return controller.submit(command);
    }

    @Override
    public void close() throws IOException {
        controller.close();
        quorum.close();
    }
}
