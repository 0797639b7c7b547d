package dev.spool.log.producer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not thread-safe: guarded by the lock of the partition log that owns it. The producer snapshot files
 * ({@link ProducerSnapshotFile}) of one partition directory, by offset.
 *
 * <p>Design note: the offsets are listed once, by the log loader's listing of the directory when the log
 * is opened, and kept up to date as snapshots are written and deleted (Kafka's {@code ProducerStateManager}
 * keeps the same map), so a roll, a truncation or a lazy load never lists the directory again; with
 * 10,000 partitions a listing each would cost start-up and retention time for nothing.
 */
public final class ProducerSnapshots {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerSnapshots.class);

    private final Path dir;
    private final NavigableSet<Long> offsets;

    public ProducerSnapshots(Path dir, Collection<Long> offsets) {
        this.dir = dir;
        this.offsets = new TreeSet<>(offsets);
    }

    /** The snapshot offsets at or below {@code offset}, newest first: the candidates of a load. */
    public List<Long> atOrBelowNewestFirst(long offset) {
        return new ArrayList<>(offsets.headSet(offset, true).descendingSet());
    }

    /** The offsets of every snapshot, oldest first (for tests and tools). */
    public List<Long> offsets() {
        return new ArrayList<>(offsets);
    }

    public List<ProducerSnapshotFile.Entry> read(long offset) throws IOException {
        return ProducerSnapshotFile.read(ProducerSnapshotFile.path(dir, offset));
    }

    /** Writes (and fsyncs) the snapshot of {@code offset}, replacing one there may be. */
    public void write(long offset, List<ProducerSnapshotFile.Entry> entries) throws IOException {
        ProducerSnapshotFile.write(dir, offset, entries);
        offsets.add(offset);
    }

    public void delete(long offset) throws IOException {
        Files.deleteIfExists(ProducerSnapshotFile.path(dir, offset));
        offsets.remove(offset);
    }

    /**
     * Deletes the snapshots above {@code offset}: the batches they describe were truncated away (or lost
     * in a crash), and a load would prefer them to the older ones that still hold.
     */
    public void deleteAbove(long offset) throws IOException {
        for (long stale : new ArrayList<>(offsets.tailSet(offset, false))) {
            LOG.info("Deleting producer snapshot {}: beyond the log end offset {}", ProducerSnapshotFile.path(dir, stale),
                    offset);
            delete(stale);
        }
    }

    /**
     * Deletes the snapshots below {@code logStartOffset} but the newest: they cover deleted segments (Kafka
     * deletes a segment's snapshot with it), while the newest is the one a load starts from.
     */
    public void deleteBelow(long logStartOffset) throws IOException {
        for (long old : new ArrayList<>(offsets.headSet(logStartOffset, false))) {
            if (old != offsets.last()) {
                delete(old);
            }
        }
    }
}
