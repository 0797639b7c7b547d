package dev.spool.broker.metadata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A quorum of one: the local {@link MetadataLog}, where a batch is committed once it is fsynced, so a proposal
 * commits (and its listener is told) on the proposing thread before {@link #propose} returns. Not thread-safe:
 * proposals come from the one controller thread.
 */
public final class LocalMetadataQuorum implements MetadataQuorum {

    private final MetadataLog log;
    private CommitListener listener = (records, lastOffset) -> { };

    public LocalMetadataQuorum(MetadataLog log) {
        this.log = log;
    }

    @Override
    public void setCommitListener(CommitListener listener) {
        this.listener = listener;
    }

    @Override
    public void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) throws IOException {
        log.replay(afterOffset, consumer);
    }

    @Override
    public CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs) {
        long lastOffset;
        try {
            lastOffset = log.append(records, nowMs);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        listener.onCommit(records, lastOffset);
        return CompletableFuture.completedFuture(lastOffset);
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
        log.close();
    }
}
