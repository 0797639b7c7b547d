package dev.spool.broker.metadata;

import dev.spool.log.LogClock;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the committed metadata: applies each committed batch to the image, snapshots it every so many
 * records, and tells the listeners, in offset order. It decides nothing. Batches arrive on one thread at a
 * time (the quorum's commit order); the image may be read from any thread. A listener added while a quorum
 * already commits (a Raft voter starts applying as soon as it joins) is added between two batches, so it sees
 * every change exactly once and in order.
 */
public final class MetadataPublisher implements MetadataQuorum.CommitListener {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataPublisher.class);

    private final MetadataQuorum quorum;
    private final LogClock clock;
    private final long snapshotIntervalRecords;
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private long recordsSinceSnapshot;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private boolean publishing = true;

    /**
     * @param snapshotIntervalRecords records committed after which the image is snapshotted and the log
     *                                before the snapshot deleted
     */
    public MetadataPublisher(MetadataQuorum quorum, LogClock clock, long snapshotIntervalRecords) {
        this.quorum = quorum;
        this.clock = clock;
        this.snapshotIntervalRecords = snapshotIntervalRecords;
    }

    /** Loads the newest snapshot and replays the committed log after it. Call once, before listeners are added. */
    public void load() throws IOException {
        MetadataImage snapshot = quorum.latestSnapshot();
        MetadataImage[] loaded = {snapshot};
        int[] replayed = {0};
        quorum.replay(snapshot.offset(), (records, lastOffset) -> {
            loaded[0] = loaded[0].apply(records, lastOffset);
            replayed[0] += records.size();
        });
        image = loaded[0];
        recordsSinceSnapshot = replayed[0];
        LOG.info("Loaded metadata up to offset {} (snapshot at {}, {} records replayed): {} topics", image.offset(),
                snapshot.offset(), replayed[0], image.topics().size());
    }

    /** Adds a listener and tells it of the current image (as a change from the empty one). */
    public synchronized void addListener(MetadataListener listener) {
        listeners.add(listener);
        listener.onImage(MetadataImage.EMPTY, image);
    }

    /** The image of everything committed and applied so far. */
    public MetadataImage image() {
        return image;
    }

    @Override
    public synchronized void onCommit(List<VersionedRecord> records, long lastOffset) {
        MetadataImage previous = image;
        MetadataImage next = previous.apply(records, lastOffset);
        image = next;
        recordsSinceSnapshot += records.size();
        if (recordsSinceSnapshot >= snapshotIntervalRecords && !quorum.snapshotsItself()) {
            snapshot(next);
        }
        publish(previous, next, lastOffset);
    }

    @Override
    public synchronized void onReset(MetadataImage installed) {
        MetadataImage previous = image;
        image = installed;
        recordsSinceSnapshot = 0;
        LOG.info("Metadata replaced by a snapshot up to offset {}: {} topics", installed.offset(),
                installed.topics().size());
        publish(previous, installed, installed.offset());
    }

    /**
     * Stops telling the listeners (the image still follows the quorum): a closing broker's partitions and
     * coordinators must not be changed under them. Returns once no listener is being told.
     */
    public synchronized void stopPublishing() {
        publishing = false;
    }

    private void publish(MetadataImage previous, MetadataImage next, long lastOffset) {
        if (!publishing) {
            return;
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
            MetadataSnapshot.write(quorum.snapshotDir(), current, clock.nowMs());
            MetadataSnapshot.deleteOlderThan(quorum.snapshotDir(), current.offset() + 1);
            quorum.deleteRecordsBefore(current.offset() + 1);
            recordsSinceSnapshot = 0;
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot snapshot the metadata at offset {}; the log keeps every record meanwhile",
                    current.offset(), e);
        }
    }
}
