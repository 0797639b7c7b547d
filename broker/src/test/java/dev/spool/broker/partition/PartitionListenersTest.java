package dev.spool.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.PartitionImage;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.types.Uuid;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionListenersTest {

    @Test
    void commitWatchersHearAppendsButAreNotCountedAsParkedRequests(@TempDir Path dir) throws Exception {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (PartitionLog log = PartitionLog.open(dir.resolve("t-0"), LogConfig.defaults(), () -> 0L, scheduler)) {
            Partition partition = new Partition(new TopicPartition("t", 0), Uuid.randomUuid(), log,
                    new PartitionImage(0, List.of(1, 2), List.of(1, 2), 1, 0, 0));
            AtomicInteger parked = new AtomicInteger();
            AtomicInteger watcher = new AtomicInteger();
            AppendListener parkedFetch = appended -> parked.incrementAndGet();
            AppendListener coordinatorShard = appended -> watcher.incrementAndGet();
            partition.addAppendListener(parkedFetch);
            partition.addCommitWatcher(coordinatorShard);

            partition.notifyAppended();

            assertThat(parked).hasValue(1);
            assertThat(watcher).hasValue(1);
            // The purgatory-size metric reads this: a loaded coordinator shard is not a parked fetch.
            assertThat(partition.appendListenerCount()).isEqualTo(1);
            assertThat(partition.commitsOnAppend()).as("a follower in sync").isFalse();
            partition.removeCommitWatcher(coordinatorShard);
            partition.notifyAppended();
            assertThat(watcher).hasValue(1);
        } finally {
            scheduler.shutdownNow();
        }
    }
}
