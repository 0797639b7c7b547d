package dev.spool.it.faults;

import java.util.concurrent.TimeUnit;

/** Stateless: how the workload's clients wait for their threads to end. */
final class WorkerThreads {

    private WorkerThreads() {
    }

    /** Waits up to {@code seconds} for {@code thread} (told to stop) to end; fails naming {@code what} otherwise. */
    static void awaitEnd(Thread thread, long seconds, String what) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(seconds));
        if (thread.isAlive()) {
            throw new IllegalStateException(what + " did not stop within " + seconds + " s");
        }
    }
}
