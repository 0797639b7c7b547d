package dev.spool.broker.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;

/** One partition's queue over a pool that runs nothing until the test says so. */
class SerialExecutorTest {

    private final Queue<Runnable> pool = new ArrayDeque<>();
    private final SerialExecutor executor = new SerialExecutor(pool::add);
    private final List<String> ran = new ArrayList<>();

    private void runPool() {
        for (Runnable next = pool.poll(); next != null; next = pool.poll()) {
            next.run();
        }
    }

    @Test
    void anIdleExecutorCallsOnTheCallingThread() {
        assertThat(executor.callHereIfIdle(Thread::currentThread)).isSameAs(Thread.currentThread());
        assertThat(pool).isEmpty();
    }

    @Test
    void aQueuedOrRunningTaskKeepsTheCallerOut() {
        executor.execute(() -> {
            ran.add("queued");
            assertThat(executor.callHereIfIdle(() -> ran.add("while running"))).isNull();
        });
        assertThat(executor.callHereIfIdle(() -> ran.add("while queued"))).isNull();
        runPool();
        assertThat(ran).containsExactly("queued");
        assertThat(executor.callHereIfIdle(() -> ran.add("idle again"))).isTrue();
        assertThat(ran).containsExactly("queued", "idle again");
    }

    @Test
    void tasksSubmittedDuringACallRunAfterItInOrder() {
        executor.callHereIfIdle(() -> {
            ran.add("here");
            executor.execute(() -> ran.add("first"));
            executor.execute(() -> ran.add("second"));
            assertThat(pool).isEmpty();
            return null;
        });
        assertThat(ran).containsExactly("here");
        runPool();
        assertThat(ran).containsExactly("here", "first", "second");
    }
}
