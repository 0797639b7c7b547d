package dev.spool.broker.quorum;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataSnapshot;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.server.storage.RaftStorageDirectory;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;

/**
 * The Raft snapshots of the metadata quorum as Kafka's checkpoints: each is a {@code <offset>-<epoch>.checkpoint}
 * file (what {@link MetadataSnapshot} writes, which Kafka's tools read) and beside it a small
 * {@code <same name>.raft} file with the Raft term and index it covers, written last: a checkpoint without it is
 * incomplete and ignored. They live in Ratis' state machine directory, which Ratis copies whole to a lagging
 * follower and replaces whole when it installs one. Thread-safe.
 */
final class CheckpointStorage implements StateMachineStorage {

    static final String RAFT_SUFFIX = ".raft";
    private static final int KEPT = 2;

    private volatile Path dir;

    /** The state machine directory of a Raft storage under {@code groupDir} (Ratis' layout), known before init. */
    static Path dirIn(Path groupDir) {
        return groupDir.resolve(RaftStorageDirectory.STATE_MACHINE_DIR_NAME);
    }

    @Override
    public void init(RaftStorage raftStorage) throws IOException {
        dir = raftStorage.getStorageDir().getStateMachineDir().toPath();
        Files.createDirectories(dir);
    }

    @Override
    public File getSnapshotDir() {
        return dir == null ? null : dir.toFile();
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        try {
            Path checkpoint = latest(dir);
            if (checkpoint == null) {
                return null;
            }
            Path raft = raftFileOf(checkpoint);
            return new FileListSnapshotInfo(List.of(new FileInfo(checkpoint, null), new FileInfo(raft, null)),
                    termIndexIn(raft));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the metadata snapshots in " + dir, e);
        }
    }

    /** The newest complete checkpoint in {@code dir}, or null. */
    static Path latest(Path dir) throws IOException {
        List<Path> complete = newestFirst(dir);
        return complete.isEmpty() ? null : complete.get(0);
    }

    /**
     * Writes a snapshot of {@code image}, whose last record has leader epoch {@code epoch} (Kafka names a snapshot
     * by it), covering Raft entries up to {@code covered}; the checkpoint first, the Raft file last (each fsynced,
     * then renamed into place).
     */
    void write(MetadataImage image, TermIndex covered, int epoch, long nowMs) throws IOException {
        Path checkpoint = MetadataSnapshot.write(dir, image, epoch, nowMs);
        Path raft = raftFileOf(checkpoint);
        Path temp = raft.resolveSibling(raft.getFileName() + ".part");
        Files.writeString(temp, covered.getTerm() + " " + covered.getIndex() + "\n", StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temp, raft, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The Raft term and index a snapshot covers, from its Raft file. */
    static TermIndex termIndexIn(Path raftFile) throws IOException {
        String[] parts = Files.readString(raftFile, StandardCharsets.UTF_8).trim().split(" ");
        try {
            return TermIndex.valueOf(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        } catch (RuntimeException e) {
            throw new IOException("Raft file " + raftFile + " is damaged", e);
        }
    }

    static Path raftFileOf(Path checkpoint) {
        return checkpoint.resolveSibling(checkpoint.getFileName() + RAFT_SUFFIX);
    }

    @Override
    public void format() {
    }

    /** Keeps the newest two snapshots: one may be being sent to a follower while the next is written. */
    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
        List<Path> complete = newestFirst(dir);
        for (Path old : complete.subList(Math.min(KEPT, complete.size()), complete.size())) {
            Files.deleteIfExists(raftFileOf(old));
            Files.deleteIfExists(old);
        }
    }

    /** The oldest snapshot kept, when there are two: the Kafka-format log is kept from it on. */
    Path oldestKept() throws IOException {
        List<Path> complete = newestFirst(dir);
        return complete.size() < KEPT ? null : complete.get(KEPT - 1);
    }

    /** The complete checkpoints in {@code dir} (those with their Raft file), newest first. */
    private static List<Path> newestFirst(Path dir) throws IOException {
        List<Path> complete = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return complete;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(file -> MetadataSnapshot.offsetOf(file) >= 0 && Files.exists(raftFileOf(file)))
                    .sorted(Comparator.comparingLong(MetadataSnapshot::offsetOf).reversed()).forEach(complete::add);
        }
        return complete;
    }
}
