package dev.spool.broker.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CoordinatorRuntimeTest {

    /** A shard whose state is a counter; its operations write records to the watermark they were given. */
    private static final class CountingShard implements CoordinatorShard {
        final ManualCommitWatermark log;
        final AtomicInteger loads = new AtomicInteger();
        final AtomicInteger unloads = new AtomicInteger();
        final CompletableFuture<String> parked = new CompletableFuture<>();
        boolean failLoad;
        int value;

        CountingShard(ManualCommitWatermark log) {
            this.log = log;
        }

        @Override
        public void load() throws IOException {
            loads.incrementAndGet();
            if (failLoad) {
                throw new IOException("unreadable partition (test)");
            }
        }

        @Override
        public void unload() {
            unloads.incrementAndGet();
            parked.complete("answered by the unload");
        }

        CompletableFuture<String> increment() {
            value++;
            log.write(1);
            return CompletableFuture.completedFuture("value " + value);
        }
    }

    private final CoordinatorRuntime<CountingShard> runtime = new CoordinatorRuntime<>("test", 2);

    @AfterEach
    void close() {
        runtime.close();
    }

    private CountingShard load(int partition, int epoch, ManualCommitWatermark log) throws Exception {
        CountingShard shard = new CountingShard(log);
        runtime.scheduleLoad(partition, epoch, log, timer -> shard);
        awaitActive(partition);
        return shard;
    }

    /** Waits until the partition's shard answers (its load ran before on the same thread). */
    private void awaitActive(int partition) throws Exception {
        runtime.call(partition, shard -> CompletableFuture.completedFuture("ok"), Errors::name)
                .get(10, TimeUnit.SECONDS);
    }

    private CompletableFuture<String> increment(int partition) {
        return runtime.call(partition, CountingShard::increment, Errors::name);
    }

    @Test
    void anAnswerIsHeldUntilWhatTheShardWroteIsCommitted() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        load(3, 0, log);

        CompletableFuture<String> first = increment(3);
        CompletableFuture<String> second = increment(3);
        // Both operations ran (two records written) but neither answer may leave before the commit.
        awaitWritten(log, 2);
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();

        log.commitAll();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("value 1");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("value 2");
    }

    @Test
    void anAnswerOfAShardThatWroteNothingIsNotHeld() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        load(3, 0, log);
        assertThat(runtime.call(3, shard -> CompletableFuture.completedFuture("read " + shard.value), Errors::name)
                .get(10, TimeUnit.SECONDS)).isEqualTo("read 0");
    }

    @Test
    void aShardUnloadedBeforeTheCommitAnswersNotCoordinatorAndParkedRequestsHearIt() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        CountingShard shard = load(3, 4, log);
        CompletableFuture<String> parked = runtime.call(3, s -> s.parked, Errors::name);
        CompletableFuture<String> uncommitted = increment(3);
        awaitWritten(log, 1);

        runtime.scheduleUnload(3, 5);

        assertThat(uncommitted.get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(parked.get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(shard.unloads).hasValue(1);
        assertThat(log.watcherCount()).isZero();
        assertThat(increment(3).get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        log.commitAll(); // a commit after the unload changes nothing
        assertThat(runtime.hostedPartitions()).isEmpty();
    }

    @Test
    void leadershipEpochsDecideWhatLoadsAndUnloads() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        CountingShard shard = load(1, 7, log);

        runtime.scheduleLoad(1, 7, log, timer -> new CountingShard(log)); // the same leadership, told again
        runtime.scheduleUnload(1, 6); // an older leadership change: the shard stays
        CompletableFuture<String> answer = increment(1);
        awaitWritten(log, 1);
        log.commitAll();
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("value 1");
        assertThat(shard.loads).hasValue(1);
        assertThat(shard.unloads).hasValue(0);

        // A newer epoch while loaded: the leadership moved away and back, so the state is replayed anew.
        CountingShard reloaded = load(1, 9, log);
        assertThat(reloaded).isNotSameAs(shard);
        assertThat(shard.unloads).hasValue(1);
        assertThat(reloaded.loads).hasValue(1);

        runtime.scheduleUnload(1, 9);
        assertThat(increment(1).get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(reloaded.unloads).hasValue(1);
    }

    @Test
    void aShardThatCannotLoadStaysFailedUntilANewLeaderEpoch() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        CountingShard broken = new CountingShard(log);
        broken.failLoad = true;
        runtime.scheduleLoad(2, 0, log, timer -> broken);
        assertThat(increment(2).get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        runtime.scheduleLoad(2, 0, log, timer -> broken); // another image, the same leadership: no retry
        assertThat(increment(2).get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(broken.loads).hasValue(1);
        assertThat(log.watcherCount()).isZero();

        CountingShard repaired = load(2, 1, log);
        assertThat(repaired.loads).hasValue(1);
        assertThat(runtime.hostedPartitions()).containsExactly(2);
    }

    @Test
    void closingAnswersHeldAndParkedRequestsAndRefusesLaterOnes() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        CountingShard shard = load(4, 0, log);
        CompletableFuture<String> parked = runtime.call(4, s -> s.parked, Errors::name);
        CompletableFuture<String> held = increment(4);
        awaitWritten(log, 1);

        runtime.close();

        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(parked.get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        assertThat(shard.unloads).hasValue(1);
        assertThat(increment(4).get(10, TimeUnit.SECONDS)).isEqualTo("NOT_COORDINATOR");
        runtime.scheduleLoad(5, 0, log, timer -> new CountingShard(log)); // ignored once closed
        assertThat(runtime.hostedPartitions()).isEmpty();
    }

    @Test
    void shardsOnDifferentThreadsRunInParallelAndOneShardRunsOneOperationAtATime() throws Exception {
        ManualCommitWatermark log = new ManualCommitWatermark();
        load(0, 0, log);
        load(1, 0, log);
        load(2, 0, log);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> blocked = runtime.call(0, shard -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return CompletableFuture.completedFuture("released");
        }, Errors::name);
        CompletableFuture<String> sameThread = runtime.call(2, s -> CompletableFuture.completedFuture("2"),
                Errors::name);

        // Partition 1 is on the other thread: it answers while partition 0 (and 2, on 0's thread) wait.
        assertThat(runtime.call(1, s -> CompletableFuture.completedFuture("1"), Errors::name)
                .get(10, TimeUnit.SECONDS)).isEqualTo("1");
        assertThat(blocked).isNotDone();
        assertThat(sameThread).isNotDone();
        release.countDown();
        assertThat(blocked.get(10, TimeUnit.SECONDS)).isEqualTo("released");
        assertThat(sameThread.get(10, TimeUnit.SECONDS)).isEqualTo("2");
    }

    @Test
    void callAllGathersTheLoadedShardsInPartitionOrderAfterTheirCommits() throws Exception {
        ManualCommitWatermark written = new ManualCommitWatermark();
        ManualCommitWatermark idle = new ManualCommitWatermark();
        load(5, 0, idle);
        load(2, 0, written);
        increment(2);
        awaitWritten(written, 1);
        CountDownLatch ran = new CountDownLatch(2);
        CompletableFuture<List<String>> all = runtime.callAll(shard -> {
            ran.countDown();
            return "shard with " + shard.value;
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(all).as("shard 2's write is not committed yet").isNotDone();
        written.commitAll();
        assertThat(all.get(10, TimeUnit.SECONDS)).containsExactly("shard with 1", "shard with 0");
    }

    private static void awaitWritten(ManualCommitWatermark log, long offset) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.writtenUpTo() < offset && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(log.writtenUpTo()).isEqualTo(offset);
    }
}
