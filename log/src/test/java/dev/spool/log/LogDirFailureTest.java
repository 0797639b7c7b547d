package dev.spool.log;

import dev.spool.log.record.CompressionType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.spool.log.TestLogs.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * KIP-112 in the log manager: a real failing system call (a directory where a file must be created, which
 * fails even for root) takes the log dir offline, and only that dir.
 */
class LogDirFailureTest {
    @TempDir
    Path root;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();
    private final BlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
    private static final LogManager.Intervals NEVER = new LogManager.Intervals(3_600_000, 3_600_000, 3_600_000);

    private record Failure(Path logDir, IOException cause, List<Path> onlineDirs) {
    }

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private LogManager open(List<Path> dirs) throws IOException {
        LogManager manager = LogManager.open(dirs, topic -> TestLogs.config("segment.bytes", 1024), clock, scheduler,
                NEVER);
        manager.addFailureListener((dir, cause, online) -> failures.add(new Failure(dir, cause, online)));
        return manager;
    }

    /** The next roll of {@code log} opens its new offset index where a directory now stands: EISDIR. */
    private static void blockNextRoll(PartitionLog log) throws IOException {
        Files.createDirectories(LogFileNames.offsetIndexFile(log.dir(), log.logEndOffset()));
    }

    private Failure awaitFailure() throws InterruptedException {
        Failure failure = failures.poll(30, TimeUnit.SECONDS);
        assertThat(failure).as("the failure listener was called").isNotNull();
        return failure;
    }

    @Test
    void aFailedRollTakesItsDirOfflineWhileTheOtherDirKeepsWorking() throws Exception {
        Path d1 = root.resolve("d1");
        Path d2 = root.resolve("d2");
        LogManager manager = open(List.of(d1, d2));
        PartitionLog a = manager.getOrCreate(new TopicPartition("t", 0));
        PartitionLog b = manager.getOrCreate(new TopicPartition("t", 1));
        PartitionLog c = manager.getOrCreate(new TopicPartition("u", 0));
        assertThat(List.of(a.dir().getParent(), b.dir().getParent(), c.dir().getParent())).containsExactly(d1, d2, d1);
        for (int i = 0; i < 5; i++) {
            a.appendAsLeader(batch("a" + i, 2, 1000, CompressionType.NONE), 0);
        }
        c.appendAsLeader(batch("c", 3, 1000, CompressionType.NONE), 0);

        blockNextRoll(a);
        Throwable rollFailure = catchThrowable(a::roll);
        assertThat(rollFailure).isInstanceOf(IOException.class).isNotInstanceOf(LogDirOfflineException.class);

        assertThat(manager.isOffline(d1)).isTrue();
        assertThat(manager.onlineLogDirs()).containsExactly(d2);
        assertThat(a.isOffline()).isTrue();
        assertThat(c.isOffline()).as("every log of the dir, not only the one that failed").isTrue();
        assertThat(b.isOffline()).isFalse();
        Failure failure = awaitFailure();
        assertThat(failure.logDir()).isEqualTo(d1);
        assertThat(failure.cause()).isSameAs(rollFailure);
        assertThat(failure.onlineDirs()).containsExactly(d2);

        // no further reads or writes from the offline dir
        assertThatThrownBy(() -> a.appendAsLeader(batch("late", 1, 1000, CompressionType.NONE), 0))
                .isInstanceOf(LogDirOfflineException.class).hasMessageContaining(d1.toString());
        assertThatThrownBy(() -> c.read(0, 1 << 20)).isInstanceOf(LogDirOfflineException.class);
        assertThatThrownBy(() -> c.offsetForTimestamp(TimestampOffset.LATEST_TIMESTAMP))
                .isInstanceOf(LogDirOfflineException.class);
        assertThatThrownBy(c::flush).isInstanceOf(LogDirOfflineException.class);
        assertThatThrownBy(() -> manager.getOrCreate(new TopicPartition("t", 0)))
                .as("never re-created empty on another dir").isInstanceOf(LogDirOfflineException.class);
        assertThat(manager.logs()).containsOnlyKeys(new TopicPartition("t", 1));
        assertThat(manager.offlineLogs()).containsOnlyKeys(new TopicPartition("t", 0), new TopicPartition("u", 0));
        assertThat(manager.runRetention()).isZero();

        // the other dir: appends, new partitions, checkpoints, clean shutdown
        b.appendAsLeader(batch("b", 4, 1000, CompressionType.NONE), 0);
        PartitionLog created = manager.getOrCreate(new TopicPartition("new", 0));
        assertThat(created.dir().getParent()).isEqualTo(d2);
        assertThat(failures).isEmpty();
        manager.checkpoint();
        assertThat(Files.readAllLines(d2.resolve(LogManager.RECOVERY_POINT_CHECKPOINT))).hasSize(4);
        assertThat(d1.resolve(LogManager.RECOVERY_POINT_CHECKPOINT)).doesNotExist();
        manager.close();
        assertThat(d2.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).exists();
        assertThat(d1.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).as("an offline dir is not marked clean").doesNotExist();

        // the disk is healthy again: a restart brings the partitions back
        Files.delete(LogFileNames.offsetIndexFile(a.dir(), 10));
        LogManager reopened = open(List.of(d1, d2));
        assertThat(reopened.onlineLogDirs()).containsExactly(d1, d2);
        PartitionLog again = reopened.get(new TopicPartition("t", 0));
        assertThat(again.dir().getParent()).isEqualTo(d1);
        assertThat(again.logEndOffset()).isEqualTo(10);
        assertThat(TestLogs.readAll(again, 0)).hasSize(10);
        again.appendAsLeader(batch("after", 2, 1000, CompressionType.NONE), 0);
        assertThat(again.logEndOffset()).isEqualTo(12);
        assertThat(TestLogs.readAll(reopened.get(new TopicPartition("u", 0)), 0)).hasSize(3);
        reopened.close();
    }

    @Test
    void aFailedCheckpointWriteTakesItsDirOfflineAndTheOtherDirsCheckpointsAreWritten() throws Exception {
        Path d1 = root.resolve("d1");
        Path d2 = root.resolve("d2");
        LogManager manager = open(List.of(d1, d2));
        PartitionLog a = manager.getOrCreate(new TopicPartition("t", 0));
        PartitionLog b = manager.getOrCreate(new TopicPartition("t", 1));
        a.appendAsLeader(batch("a", 2, 1000, CompressionType.NONE), 0);
        b.appendAsLeader(batch("b", 2, 1000, CompressionType.NONE), 0);
        Files.createDirectories(d2.resolve(LogManager.RECOVERY_POINT_CHECKPOINT + ".tmp"));

        assertThatThrownBy(manager::checkpoint).isInstanceOf(IOException.class);

        assertThat(manager.onlineLogDirs()).containsExactly(d1);
        assertThat(b.isOffline()).isTrue();
        assertThat(awaitFailure().logDir()).isEqualTo(d2);
        assertThat(Files.readAllLines(d1.resolve(LogManager.RECOVERY_POINT_CHECKPOINT))).containsExactly("0", "1", "t 0 0");
        manager.checkpoint();
        a.appendAsLeader(batch("a", 2, 1000, CompressionType.NONE), 0);
        manager.close();
        assertThat(d1.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).exists();
        assertThat(d2.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).doesNotExist();
    }

    @Test
    void whenEveryDirHasFailedTheListenerHearsThatNoneIsOnline() throws Exception {
        Path d1 = root.resolve("d1");
        LogManager manager = open(List.of(d1));
        PartitionLog a = manager.getOrCreate(new TopicPartition("t", 0));
        a.appendAsLeader(batch("a", 2, 1000, CompressionType.NONE), 0);
        blockNextRoll(a);

        assertThatThrownBy(a::roll).isInstanceOf(IOException.class);

        Failure failure = awaitFailure();
        assertThat(failure.onlineDirs()).isEmpty();
        assertThatThrownBy(() -> manager.getOrCreate(new TopicPartition("t", 1)))
                .isInstanceOf(LogDirOfflineException.class).hasMessageContaining("every log dir");
        // a second error in the same dir is not a second failure
        assertThatThrownBy(a::roll).isInstanceOf(LogDirOfflineException.class);
        manager.close();
        assertThat(failures).isEmpty();
    }

    @Test
    void aFullDiskDoesNotTakeTheDirOffline() throws IOException {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full here");
        IOException noSpace = null;
        try (FileChannel channel = FileChannel.open(full, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            noSpace = e;
        }
        assertThat(noSpace).as("writing to /dev/full fails with ENOSPC").isNotNull();
        assertThat(LogDirFailureChannel.isOutOfSpace(noSpace)).isTrue();
        assertThat(LogDirFailureChannel.isOutOfSpace(new IOException("wrapped", noSpace))).isTrue();

        LogDirFailureChannel channel = new LogDirFailureChannel();
        assertThat(channel.maybeMarkOffline(root, noSpace)).isFalse();
        assertThat(channel.isOffline(root)).isFalse();
        IOException readOnly = new IOException("Read-only file system");
        assertThat(channel.maybeMarkOffline(root, readOnly)).isTrue();
        assertThat(channel.maybeMarkOffline(root, readOnly)).as("only the first report counts").isFalse();
        assertThat(channel.isOffline(root)).isTrue();
    }
}
