package dev.spool.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stateless: the directory names of a replica moving between log dirs (AlterReplicaLogDirs), Kafka's:
 * {@code <topic>-<partition>.<id>-future} for the copy being made in the destination dir, and
 * {@code <topic>-<partition>.<id>-delete} for the replaced log waiting to be removed; and what a start makes of
 * those a process left behind ({@link #recover}).
 *
 * <p>The swap renames the replaced log to {@code -delete} first and the finished copy from {@code -future} to
 * its plain name second, each rename made durable before the next. So after a crash a future dir beside a
 * plain one is a copy that was never finished (removed: the move is forgotten, the operator asks again), and a
 * future dir with no plain one anywhere is a finished copy whose second rename was lost (completed).
 */
public final class MovedLogNames {

    private static final Logger LOG = LoggerFactory.getLogger(MovedLogNames.class);
    private static final String FUTURE_SUFFIX = "-future";
    private static final String DELETE_SUFFIX = "-delete";

    private MovedLogNames() {
    }

    /** Where a copy of {@code partition} is made in {@code logDir}. */
    public static Path futureDir(Path logDir, TopicPartition partition) {
        return logDir.resolve(partition.dirName() + "." + uniqueId() + FUTURE_SUFFIX);
    }

    /** Where a replaced log's directory waits for its removal. */
    public static Path deleteDir(Path partitionDir) {
        return partitionDir.resolveSibling(partitionDir.getFileName() + "." + uniqueId() + DELETE_SUFFIX);
    }

    /** The partition a {@code -future} or {@code -delete} directory name is of, or null for any other name. */
    static TopicPartition partitionOf(String dirName) {
        if (!dirName.endsWith(FUTURE_SUFFIX) && !dirName.endsWith(DELETE_SUFFIX)) {
            return null;
        }
        int dot = dirName.lastIndexOf('.');
        return dot <= 0 ? null : TopicPartition.parseDirName(dirName.substring(0, dot));
    }

    /** Renames {@code from} to {@code to} atomically and makes the rename durable (both parents synced). */
    static void renameDurably(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(to.getParent());
        if (!from.getParent().equals(to.getParent())) {
            syncDirectory(from.getParent());
        }
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * Before the logs of {@code logDirs} are loaded: removes the {@code -delete} dirs and the unfinished
     * {@code -future} ones, and gives a finished future dir its plain name (see the class comment).
     */
    static void recover(List<Path> logDirs) throws IOException {
        Set<TopicPartition> plain = new HashSet<>();
        List<Path> futures = new ArrayList<>();
        for (Path logDir : logDirs) {
            if (!Files.isDirectory(logDir)) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir, Files::isDirectory)) {
                for (Path entry : entries) {
                    String name = entry.getFileName().toString();
                    TopicPartition moved = partitionOf(name);
                    if (moved == null) {
                        TopicPartition partition = TopicPartition.parseDirName(name);
                        if (partition != null) {
                            plain.add(partition);
                        }
                    } else if (name.endsWith(DELETE_SUFFIX)) {
                        LOG.info("Removing {}, a log replaced by its copy in another log dir", entry);
                        FileTrees.deleteRecursively(entry);
                    } else {
                        futures.add(entry);
                    }
                }
            }
        }
        for (Path future : futures) {
            TopicPartition partition = partitionOf(future.getFileName().toString());
            if (plain.contains(partition)) {
                LOG.warn("Removing {}: the move of {} to log dir {} did not finish before the last stop; ask for it "
                        + "again (AlterReplicaLogDirs)", future, partition, future.getParent());
                FileTrees.deleteRecursively(future);
            } else {
                LOG.info("Completing the move of {} to log dir {}", partition, future.getParent());
                renameDurably(future, future.resolveSibling(partition.dirName()));
                plain.add(partition);
            }
        }
    }

    private static String uniqueId() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
