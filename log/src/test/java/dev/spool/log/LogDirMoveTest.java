package dev.spool.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica moving between log dirs (AlterReplicaLogDirs) while it is written: the copy, the swap, what a
 * writer holding the old log sees, and what a restart makes of a move a crash interrupted.
 */
class LogDirMoveTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final LogManager.Intervals NEVER = new LogManager.Intervals(3_600_000, 3_600_000, 3_600_000);

    @TempDir
    Path root;
    private final ScheduledExecutorService scheduler = TestLogs.scheduler();
    private final ManualLogClock clock = new ManualLogClock();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private LogManager open(List<Path> dirs) throws IOException {
        return LogManager.open(dirs, topic -> TestLogs.config("segment.bytes", 4096, "file.delete.delay.ms", 200),
                clock, scheduler, NEVER);
    }

    @Test
    void aReplicaMovesToAnotherDirWhileWrittenWithEveryBatchItsEpochsStartAndHighWatermark() throws Exception {
        Path from = root.resolve("d1");
        Path to = root.resolve("d2");
        LogManager manager = open(List.of(from, to));
        PartitionLog original = manager.getOrCreate(ORDERS);
        assertThat(original.dir().getParent()).isEqualTo(from);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            appendAndCommit(manager, "before" + i, i / 100, written);
        }
        original.deleteRecordsBefore(50);

        // A producer goes on writing through the move, taking the partition's log as it is at each append.
        AtomicBoolean writing = new AtomicBoolean(true);
        List<String> during = Collections.synchronizedList(new ArrayList<>());
        Thread writer = new Thread(() -> {
            for (int i = 0; writing.get(); i++) {
                try {
                    appendAndCommit(manager, "during" + i, 3, during);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        writer.start();
        manager.moveToDir(ORDERS, to);
        awaitTrue(() -> manager.get(ORDERS).dir().getParent().equals(to), "the replica in " + to);
        int atSwap = during.size();
        awaitTrue(() -> during.size() > atSwap + 100, "appends after the swap");
        writing.set(false);
        writer.join();
        written.addAll(during);

        PartitionLog moved = manager.get(ORDERS);
        assertThat(original.movedTo()).isSameAs(moved);
        assertThat(moved.dir()).isEqualTo(to.resolve("orders-0"));
        assertThat(values(moved)).as("every record from the log start, once, in order").isEqualTo(written.subList(50,
                written.size()));
        assertThat(moved.logStartOffset()).isEqualTo(50);
        assertThat(moved.highWatermark()).isEqualTo(moved.logEndOffset());
        assertThat(moved.leaderEpochs().entries()).containsOnlyKeys(0, 1, 2, 3).containsEntry(1, 100L)
                .containsEntry(2, 200L).containsEntry(3, 300L);
        assertThatThrownBy(() -> original.appendAsLeader(TestLogs.batch("late", 1, 0, CompressionType.NONE), 3))
                .as("a writer holding the old log is told to take the new one").isInstanceOf(LogMovedException.class);
        assertThat(manager.futureLogs()).isEmpty();
        awaitTrue(() -> partitionDirs(from).isEmpty(), "the replaced log removed after file.delete.delay.ms");

        manager.close();
        LogManager reopened = open(List.of(from, to));
        assertThat(reopened.get(ORDERS).dir()).isEqualTo(to.resolve("orders-0"));
        assertThat(values(reopened.get(ORDERS))).isEqualTo(written.subList(50, written.size()));
        reopened.close();
    }

    /** Appends one record as the leader of {@code epoch} would, again on the new log if the log moved meanwhile. */
    private static void appendAndCommit(LogManager manager, String value, int epoch, List<String> written)
            throws IOException {
        while (true) {
            PartitionLog log = manager.get(ORDERS);
            try {
                log.appendAsLeader(TestLogs.batch(value, 1, 0, CompressionType.NONE), epoch);
                log.updateHighWatermark(log.logEndOffset());
                written.add("v" + value + "-0");
                return;
            } catch (LogMovedException e) {
                // taken before the swap: the append did nothing, and goes to the new log
            }
        }
    }

    @Test
    void aCopyFollowsTheCurrentLogThroughATruncationAndAMovedLogStart() throws IOException {
        PartitionLog current = PartitionLog.open(root.resolve("current/orders-0"), TestLogs.config(), clock,
                scheduler);
        PartitionLog copy = PartitionLog.open(root.resolve("copy/orders-0"), TestLogs.config(), clock, scheduler);
        for (int i = 0; i < 10; i++) {
            current.appendAsLeader(TestLogs.batch("a" + i, 2, 0, CompressionType.NONE), 0);
        }
        LogDirMover.copyUntilCaughtUp(current, copy);
        assertThat(values(copy)).isEqualTo(values(current)).hasSize(20);

        // A new leader's log replaced the last batches: the copy must not keep the ones cut.
        current.truncateTo(11);
        for (int i = 0; i < 3; i++) {
            current.appendAsLeader(TestLogs.batch("b" + i, 2, 0, CompressionType.NONE), 1);
        }
        LogDirMover.copyUntilCaughtUp(current, copy);
        assertThat(values(copy)).isEqualTo(values(current)).doesNotContain("va5-0").contains("vb0-0");
        assertThat(copy.leaderEpochs().entries()).isEqualTo(current.leaderEpochs().entries());

        // Records deleted at the front of the current log before they were copied are not copied.
        PartitionLog late = PartitionLog.open(root.resolve("late/orders-0"), TestLogs.config(), clock, scheduler);
        current.updateHighWatermark(current.logEndOffset());
        current.deleteRecordsBefore(14);
        LogDirMover.copyUntilCaughtUp(current, late);
        assertThat(late.logStartOffset()).isEqualTo(14);
        assertThat(values(late)).isEqualTo(values(current));
        for (PartitionLog log : List.of(current, copy, late)) {
            log.close();
        }
    }

    @Test
    void aStartRemovesAnUnfinishedCopyAndFinishesASwapThatLostItsSecondRename() throws IOException {
        Path from = root.resolve("d1");
        Path to = root.resolve("d2");
        LogManager manager = open(List.of(from, to));
        PartitionLog log = manager.getOrCreate(ORDERS);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            appendAndCommit(manager, "r" + i, 0, written);
        }
        manager.close();
        Files.createDirectories(from.resolve("orders-1.0123456789abcdef0123456789abcdef-delete"));
        Path unfinished = to.resolve("orders-0.0123456789abcdef0123456789abcdef-future");
        copyTree(log.dir(), unfinished);

        LogManager second = open(List.of(from, to));
        assertThat(second.get(ORDERS).dir().getParent()).as("the move had not swapped: the replica stays").isEqualTo(from);
        assertThat(partitionDirs(to)).as("the unfinished copy removed").isEmpty();
        assertThat(partitionDirs(from)).as("the replaced log removed").containsExactly("orders-0");
        second.close();

        // The crash came between the swap's renames: the old log is -delete, the finished copy still -future.
        copyTree(from.resolve("orders-0"), unfinished);
        Files.move(from.resolve("orders-0"), from.resolve("orders-0.fedcba9876543210fedcba9876543210-delete"));
        LogManager third = open(List.of(from, to));
        assertThat(third.get(ORDERS).dir()).isEqualTo(to.resolve("orders-0"));
        assertThat(values(third.get(ORDERS))).isEqualTo(written);
        assertThat(partitionDirs(from)).isEmpty();
        third.close();
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws IOException;
    }

    private static void awaitTrue(Condition condition, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    private static List<String> values(PartitionLog log) throws IOException {
        List<String> values = new ArrayList<>();
        for (Record record : TestLogs.readAll(log, log.logStartOffset())) {
            values.add(TestLogs.text(record.value()));
        }
        return values;
    }

    private static List<String> partitionDirs(Path logDir) throws IOException {
        try (Stream<Path> entries = Files.list(logDir)) {
            return entries.filter(Files::isDirectory).map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
    }
}
