package dev.spool.broker.fetch;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.partition.Partition;
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
 * Thread-safe: an append's re-read and the timeout may race, and the first to finish wins. A fetch parked
 * until {@code min_bytes} are there or {@code max_wait_ms} has passed: no thread waits for it. It listens to
 * the appends of the partitions it reads; an append schedules one re-read on the wait executor (never on the
 * appending thread), and the timeout answers with whatever is there then.
 */
final class DelayedFetch implements AppendListener {

    private final Supplier<FetchReader.Result> reader;
    private final Function<FetchReader.Result, Message> responder;
    private final long minBytes;
    private final List<Partition> watched;
    private final ScheduledExecutorService executor;
    private final CompletableFuture<Message> answer = new CompletableFuture<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean checkPending = new AtomicBoolean();
    private volatile ScheduledFuture<?> timeout;

    DelayedFetch(Supplier<FetchReader.Result> reader, Function<FetchReader.Result, Message> responder, long minBytes,
                 List<Partition> watched, ScheduledExecutorService executor) {
        this.reader = reader;
        this.responder = responder;
        this.minBytes = minBytes;
        this.watched = watched;
        this.executor = executor;
    }

    /** Starts waiting; the future completes with the response. */
    CompletableFuture<Message> park(long maxWaitMs) {
        for (Partition partition : watched) {
            partition.addAppendListener(this);
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
        FetchReader.Result result = reader.get();
        if (result.recordBytes() >= minBytes || result.anyError()) {
            complete(result);
        }
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
        for (Partition partition : watched) {
            partition.removeAppendListener(this);
        }
        ScheduledFuture<?> timer = timeout;
        if (timer != null) {
            timer.cancel(false);
        }
        return true;
    }
}
