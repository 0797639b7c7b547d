package dev.spool.broker.metadata;

import dev.spool.log.LogClock;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single broker's metadata controller: commands run one at a time on the metadata thread against
 * the current image, their records go to the {@link MetadataLog} (fsynced), then the new image is
 * applied, published to the listeners, and only then is the command's future completed. Request
 * handlers never block on it; they chain on the future. Thread-safe.
 */
public final class MetadataManager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataManager.class);

    private final MetadataLog log;
    private final LogClock clock;
    private final long snapshotIntervalRecords;
    private long recordsSinceSnapshot;
    private final ExecutorService thread;
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private volatile MetadataImage image = MetadataImage.EMPTY;

    /**
     * @param snapshotIntervalRecords records appended after which the image is snapshotted and the log
     *                                before the snapshot deleted
     */
    public MetadataManager(MetadataLog log, LogClock clock, long snapshotIntervalRecords) {
        this.log = log;
        this.clock = clock;
        this.snapshotIntervalRecords = snapshotIntervalRecords;
        this.thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread worker = new Thread(runnable, "spool-metadata");
            worker.setDaemon(true);
            return worker;
        });
    }

    /** Loads the newest snapshot and replays the log after it. Call once, before listeners are added. */
    public void load() throws IOException {
        MetadataImage snapshot = MetadataSnapshot.loadNewest(log.dir());
        MetadataImage[] loaded = {snapshot};
        int[] replayed = {0};
        log.replay(snapshot.offset(), (records, lastOffset) -> {
            loaded[0] = loaded[0].apply(records, lastOffset);
            replayed[0] += records.size();
        });
        image = loaded[0];
        recordsSinceSnapshot = replayed[0];
        LOG.info("Loaded metadata up to offset {} (snapshot at {}, {} records replayed): {} topics", image.offset(),
                snapshot.offset(), replayed[0], image.topics().size());
    }

    /** Adds a listener and tells it of the current image (as a change from the empty one). */
    public void addListener(MetadataListener listener) {
        listeners.add(listener);
        listener.onImage(MetadataImage.EMPTY, image);
    }

    /** The latest image; safe to read from any thread. */
    public MetadataImage image() {
        return image;
    }

    /**
     * Runs a command on the metadata thread: it sees the current image and returns the records to
     * append and its result. The future completes after the records are durable and applied.
     */
    public <T> CompletableFuture<T> submit(Function<MetadataImage, MetadataChange<T>> command) {
        return CompletableFuture.supplyAsync(() -> {
            MetadataChange<T> change = command.apply(image);
            if (!change.records().isEmpty()) {
                commit(change.records());
            }
            return change.result();
        }, thread);
    }

    private void commit(List<VersionedRecord> records) {
        long lastOffset;
        try {
            lastOffset = log.append(records, clock.nowMs());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot append to the metadata log", e);
        }
        MetadataImage previous = image;
        MetadataImage next = previous.apply(records, lastOffset);
        image = next;
        recordsSinceSnapshot += records.size();
        if (recordsSinceSnapshot >= snapshotIntervalRecords) {
            snapshot(next);
        }
        for (MetadataListener listener : listeners) {
            try {
                listener.onImage(previous, next);
            } catch (RuntimeException e) {
                LOG.error("Metadata listener {} failed on the change to offset {}", listener, lastOffset, e);
            }
        }
    }

    /** Writes a snapshot of the image and forgets the log it covers; a failure only delays that. */
    private void snapshot(MetadataImage current) {
        try {
            MetadataSnapshot.write(log.dir(), current, clock.nowMs());
            MetadataSnapshot.deleteOlderThan(log.dir(), current.offset() + 1);
            log.deleteRecordsBefore(current.offset() + 1);
            recordsSinceSnapshot = 0;
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot snapshot the metadata at offset {}; the log keeps every record meanwhile",
                    current.offset(), e);
        }
    }

    @Override
    public void close() throws IOException {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Metadata thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.close();
    }
}
