package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.partition.AppendListener;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.LeadershipMovedException;
import dev.spool.broker.partition.Partition;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.group.OffsetCommitValueData;
import dev.spool.protocol.message.OffsetCommitRequestData;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import dev.spool.protocol.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import dev.spool.protocol.types.Uuid;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionCoordinatorLogTest {

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private Partition open(LogConfig config) throws Exception {
        TopicPartition topicPartition = new TopicPartition(GroupCoordinator.TOPIC, 3);
        PartitionLog log = PartitionLog.open(dir.resolve(topicPartition.dirName()), config, () -> 5_000L, scheduler);
        return new Partition(topicPartition, Uuid.randomUuid(), log, new PartitionImage(3, List.of(1), List.of(1), 1, 4, 0));
    }

    @Test
    void appendedRecordsAreReadBackInOrderAfterReopeningAndAcrossSegments() throws Exception {
        // Small segments: replay must cross segment boundaries.
        LogConfig config = LogConfig.defaults().with(Map.of("segment.bytes", "1024"));
        Partition partition = open(config);
        PartitionCoordinatorLog log = new PartitionCoordinatorLog(partition, partition.leaderEpoch(), () -> 5_000L);
        AtomicInteger woken = new AtomicInteger();
        AppendListener listener = appended -> woken.incrementAndGet();
        partition.addAppendListener(listener);
        for (int i = 0; i < 50; i++) {
            log.append(List.of(CoordinatorRecord.offsetCommit("g", "t", i % 4,
                    new CommittedOffset(i, 1, "m" + i, 5_000L, CommittedOffset.NO_EXPIRY))));
        }
        log.append(List.of(CoordinatorRecord.offsetTombstone("g", "t", 0), CoordinatorRecord.groupTombstone("g")));
        assertThat(partition.log().highWatermark()).isEqualTo(52);
        assertThat(partition.log().segments().size()).isGreaterThan(1);
        assertThat(woken.get()).isEqualTo(51);
        partition.log().close();

        Partition reopened = open(config);
        List<CoordinatorRecord> replayed = new ArrayList<>();
        new PartitionCoordinatorLog(reopened, reopened.leaderEpoch(), () -> 5_000L).replay(replayed::add);
        reopened.log().close();

        assertThat(replayed).hasSize(52);
        assertThat(((OffsetCommitValueData) replayed.get(49).value()).offset()).isEqualTo(49);
        assertThat(replayed.get(50).isTombstone()).isTrue();
        assertThat(replayed.get(51).isOffsetCommit()).isFalse();
    }

    @Test
    void aShardLoadedForAnEarlierLeaderEpochWritesNothing() throws Exception {
        Partition partition = open(LogConfig.defaults());
        PartitionCoordinatorLog stale = new PartitionCoordinatorLog(partition, partition.leaderEpoch() - 1,
                () -> 5_000L);

        assertThatThrownBy(() -> stale.append(List.of(CoordinatorRecord.offsetCommit("g", "t", 0,
                new CommittedOffset(7, 1, "", 5_000L, CommittedOffset.NO_EXPIRY)))))
                .isInstanceOf(LeadershipMovedException.class);
        assertThat(partition.log().logEndOffset()).isZero();
        partition.log().close();
    }

    @Test
    void aShardReloadedFromTheLogHasTheCommittedOffsets() throws Exception {
        Partition partition = open(LogConfig.defaults());
        ManualTimer timer = new ManualTimer();
        GroupCoordinatorShard shard = new GroupCoordinatorShard(3,
                new PartitionCoordinatorLog(partition, partition.leaderEpoch(), () -> 5_000L),
                timer, timer::nowMs, GroupSettings.defaults());
        shard.load();
        short error = ShardFixture.commitError(shard.offsetCommits().commit(new OffsetCommitRequestData()
                .setGroupId("g").setGenerationIdOrMemberEpoch(-1).setMemberId("")
                .setTopics(List.of(new OffsetCommitRequestTopic()
                        .setName("t").setPartitions(List.of(
                                new OffsetCommitRequestPartition()
                                        .setPartitionIndex(2).setCommittedOffset(77)
                                        .setCommittedMetadata("x"))))), (short) 8));
        assertThat(error).isZero();
        partition.log().close();

        Partition reopened = open(LogConfig.defaults());
        GroupCoordinatorShard reloaded = new GroupCoordinatorShard(3,
                new PartitionCoordinatorLog(reopened, reopened.leaderEpoch(), () -> 5_000L), new ManualTimer(), timer::nowMs, GroupSettings.defaults());
        reloaded.load();
        reopened.log().close();

        assertThat(reloaded.offsets().get("g", "t", 2).offset()).isEqualTo(77);
        assertThat(reloaded.offsets().get("g", "t", 2).metadata()).isEqualTo("x");
    }
}
