package dev.spool.broker.metadata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The replicated log of metadata records that the controller proposes to and the publisher follows. Every
 * committed batch reaches the {@link CommitListener} once, in offset order; a proposal's future completes with
 * its last offset after the listener has been told of it. The only implementation today is the local file
 * ({@link LocalMetadataQuorum}), which commits as it appends; a Raft quorum commits when a majority has the
 * batch, later and on its own thread. Implementations are thread-safe.
 */
public interface MetadataQuorum extends AutoCloseable {

    /** Told of each committed batch of records, with the offset of its last record. */
    @FunctionalInterface
    interface CommitListener {
        void onCommit(List<VersionedRecord> records, long lastOffset);

        /**
         * Everything so far is replaced by a snapshot's image: a Raft voter that fell behind what the others' logs
         * still hold installs the leader's snapshot, and goes on from there.
         */
        default void onReset(MetadataImage image) {
        }
    }

    /** Who hears of commits; set once, before the first proposal. */
    void setCommitListener(CommitListener listener);

    /** The committed batches after {@code afterOffset}, in order (loading, before anything is proposed). */
    void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) throws IOException;

    /** Begins following the quorum once the committed batches were replayed (a Raft voter joins here). */
    default void start() throws IOException {
    }

    /** Whether this node is the active controller, the one that decides and proposes: always, on one node. */
    default boolean isActiveController() {
        return true;
    }

    /** The node id of the active controller as this node knows it; -1 while there is none (or on one node). */
    default int activeControllerId() {
        return -1;
    }

    /** The epoch of the active controller (Raft's term); 0 for a quorum of one, which holds no elections. */
    default int epoch() {
        return 0;
    }

    /** On the quorum's leader, how far each other voter is; empty elsewhere (and on one node). */
    default java.util.List<VoterProgress> voterProgress(long nowMs) {
        return java.util.List.of();
    }

    /** Proposes one batch; completes with the offset of its last record once it is committed and published. */
    CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs);

    /** Where snapshots of the image are kept. */
    Path snapshotDir();

    /** The image of the newest snapshot, or the empty image: where loading starts before {@link #replay}. */
    default MetadataImage latestSnapshot() throws IOException {
        return MetadataSnapshot.loadNewest(snapshotDir());
    }

    /** The newest snapshot file a voter serves to brokers behind the start of its log, or null (none, or no voter). */
    default Path newestSnapshotFile() throws IOException {
        return null;
    }

    /** Whether the quorum takes its snapshots itself (Raft does); else the publisher takes them every so often. */
    default boolean snapshotsItself() {
        return false;
    }

    /** The image as published, which a quorum that snapshots itself writes into its snapshots. */
    default void setImageSource(java.util.function.Supplier<MetadataImage> image) {
    }

    /** Forgets the records before {@code offset}, which a snapshot covers. */
    void deleteRecordsBefore(long offset) throws IOException;

    @Override
    void close() throws IOException;
}
