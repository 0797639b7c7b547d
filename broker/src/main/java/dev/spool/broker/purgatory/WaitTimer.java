package dev.spool.broker.purgatory;

/**
 * Where parked operations are checked and time out: {@link #execute} runs a check off the thread that woke it,
 * {@link #schedule} runs a timeout later. The broker's runs on one thread ({@link ThreadWaitTimer}); tests
 * use a manual one whose time they advance, so that they do not sleep. Implementations are thread-safe.
 */
public interface WaitTimer {

    /** A scheduled task that may still be cancelled. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }

    /** Runs {@code task} soon, on the timer's thread; throws RejectedExecutionException once stopped. */
    void execute(Runnable task);

    /** Runs {@code task} after {@code delayMs}; throws RejectedExecutionException once stopped. */
    Cancellable schedule(Runnable task, long delayMs);
}
