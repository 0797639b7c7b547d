package dev.spool.broker.fetch;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.DelayedOperation;
import dev.spool.log.LogOffsetMetadata;
import java.io.IOException;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Thread-safe (see {@link DelayedOperation}). A fetch parked until {@code min_bytes} are there or
 * {@code max_wait_ms} has passed. Whether enough is there is offset arithmetic, as Kafka's: the bytes between
 * the bound each partition had when the fetch was read and the one it has now, both with their positions (a
 * consumer's bound is the high watermark, a follower's the log end); the log is read again only to answer, with
 * whatever is there then.
 */
final class DelayedFetch extends DelayedOperation {

    /** What a read stops at. */
    enum Bound {
        /** A follower's. */
        LOG_END,
        /** A read_uncommitted consumer's. */
        HIGH_WATERMARK,
        /** A read_committed consumer's. */
        LAST_STABLE_OFFSET
    }

    /**
     * A partition of the fetch: the bound it was read up to and its share of the response.
     */
    record Watch(Partition partition, LogOffsetMetadata readUpTo, int maxBytes, Bound kind) {

        /** The bound now (a last stable offset not known yet has not moved). */
        LogOffsetMetadata bound() {
            return switch (kind) {
                case LOG_END -> partition.log().logEndMetadata();
                case HIGH_WATERMARK -> partition.log().highWatermarkMetadata();
                case LAST_STABLE_OFFSET -> {
                    try {
                        LogOffsetMetadata lastStable = partition.log().lastStableOffsetMetadata();
                        yield lastStable == null ? readUpTo : lastStable;
                    } catch (IOException e) {
                        yield readUpTo; // the read that answers finds the failure
                    }
                }
            };
        }
    }

    private final Supplier<FetchReader.Result> reader;
    private final Function<FetchReader.Result, Message> responder;
    private final long minBytes;
    private final long bytesAtPark;
    private final List<Watch> watches;
    private final CompletableFuture<Message> answer = new CompletableFuture<>();

    /** {@code bytesAtPark}: what the first read found, fewer than {@code minBytes}. */
    DelayedFetch(Supplier<FetchReader.Result> reader, Function<FetchReader.Result, Message> responder, long minBytes,
                 long bytesAtPark, List<Watch> watches) {
        super(partitionsOf(watches));
        this.reader = reader;
        this.responder = responder;
        this.minBytes = minBytes;
        this.bytesAtPark = bytesAtPark;
        this.watches = watches;
    }

    private static List<Partition> partitionsOf(List<Watch> watches) {
        List<Partition> partitions = new ArrayList<>(watches.size());
        for (Watch watch : watches) {
            partitions.add(watch.partition());
        }
        return partitions;
    }

    /** The response, once the fetch completes. */
    CompletableFuture<Message> answer() {
        return answer;
    }

    /**
     * Whether the bounds moved past {@code min_bytes} since the fetch was read, or something happened
     * that only a read can tell (a new segment, a truncation, an offline log): answering then is always right.
     */
    @Override
    protected boolean canComplete() {
        long bytes = bytesAtPark;
        for (Watch watch : watches) {
            if (watch.partition().isOffline()) {
                return true;
            }
            // A follower waits for the leader's log end to move: its next fetch is what moves the high watermark.
            LogOffsetMetadata now = watch.bound();
            LogOffsetMetadata then = watch.readUpTo();
            if (now.offset() == then.offset()) {
                continue;
            }
            if (now.segmentBaseOffset() != then.segmentBaseOffset() || now.offset() < then.offset()) {
                return true;
            }
            bytes += Math.min(now.position() - then.position(), watch.maxBytes());
            if (bytes >= minBytes) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void complete(boolean expired) {
        try {
            answer.complete(responder.apply(reader.get()));
        } catch (RuntimeException e) {
            answer.completeExceptionally(e);
        }
    }

    @Override
    protected void fail(Throwable failure) {
        answer.completeExceptionally(failure);
    }
}
