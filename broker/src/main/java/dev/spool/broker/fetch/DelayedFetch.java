package dev.spool.broker.fetch;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.partition.Partition;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.protocol.types.Message;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Thread-safe: an append's check and the timeout may race, and the first to finish wins. A fetch parked
 * until {@code min_bytes} are there or {@code max_wait_ms} has passed: no thread waits for it. It listens to
 * the appends of the partitions it reads; an append schedules one check on the wait executor (never on the
 * appending thread). The check is offset arithmetic, as Kafka's: the bytes between the high watermark each
 * partition had when the fetch was read and the one it has now, both with their positions; the log is read
 * again only to answer. The timeout answers with whatever is there then.
 */
final class DelayedFetch implements AppendListener {

    /** A partition of the fetch: the high watermark it was read up to, and its share of the response. */
    record Watch(Partition partition, LogOffsetMetadata readUpTo, int maxBytes) {
    }

    private final Supplier<FetchReader.Result> reader;
    private final Function<FetchReader.Result, Message> responder;
    private final long minBytes;
    private final long bytesAtPark;
    private final List<Watch> watches;
    private final ScheduledExecutorService executor;
    private final CompletableFuture<Message> answer = new CompletableFuture<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean checkPending = new AtomicBoolean();
    private volatile ScheduledFuture<?> timeout;

    /** {@code bytesAtPark}: what the first read found, fewer than {@code minBytes}. */
    DelayedFetch(Supplier<FetchReader.Result> reader, Function<FetchReader.Result, Message> responder, long minBytes,
                 long bytesAtPark, List<Watch> watches, ScheduledExecutorService executor) {
        this.reader = reader;
        this.responder = responder;
        this.minBytes = minBytes;
        this.bytesAtPark = bytesAtPark;
        this.watches = watches;
        this.executor = executor;
    }

    /** Starts waiting; the future completes with the response. */
    CompletableFuture<Message> park(long maxWaitMs) {
        for (Watch watch : watches) {
            watch.partition().addAppendListener(this);
        }
        ScheduledFuture<?> timer;
        try {
            timer = executor.schedule(this::onTimeout, maxWaitMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            fail(e);
            return answer;
        }
        timeout = timer;
        if (done.get()) {
            // Finished before the timer was visible to it: cancel it here (one of the two sides always sees the other).
            timer.cancel(false);
        }
        // An append between the first read and the registration above would otherwise go unnoticed.
        onAppend(null);
        return answer;
    }

    @Override
    public void onAppend(Partition partition) {
        if (done.get() || !checkPending.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(this::check);
        } catch (RejectedExecutionException e) {
            // The broker is shutting down: the connection closes with it.
            fail(e);
        }
    }

    private void check() {
        checkPending.set(false);
        if (done.get()) {
            return;
        }
        if (enoughToAnswer()) {
            complete(reader.get());
        }
    }

    /**
     * Whether the high watermarks moved past {@code min_bytes} since the fetch was read, or something happened
     * that only a read can tell (a new segment, a truncation, an offline log): answering then is always right.
     */
    private boolean enoughToAnswer() {
        long bytes = bytesAtPark;
        for (Watch watch : watches) {
            if (watch.partition().isOffline()) {
                return true;
            }
            LogOffsetMetadata now = watch.partition().log().highWatermarkMetadata();
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

    private void onTimeout() {
        if (!done.get()) {
            complete(reader.get());
        }
    }

    private void complete(FetchReader.Result result) {
        if (!stopWaiting()) {
            return;
        }
        try {
            answer.complete(responder.apply(result));
        } catch (RuntimeException e) {
            answer.completeExceptionally(e);
        }
    }

    private void fail(Throwable failure) {
        if (stopWaiting()) {
            answer.completeExceptionally(failure);
        }
    }

    /** Returns true for the one caller that ends the wait: it stops listening and cancels the timer. */
    private boolean stopWaiting() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        for (Watch watch : watches) {
            watch.partition().removeAppendListener(this);
        }
        ScheduledFuture<?> timer = timeout;
        if (timer != null) {
            timer.cancel(false);
        }
        return true;
    }
}
