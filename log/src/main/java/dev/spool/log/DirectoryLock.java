package dev.spool.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Thread-safe: an exclusive lock on a data directory, held through its {@code .lock} file (as Kafka does) for
 * as long as one broker uses the directory.
 *
 * <p>Design note: two brokers on one directory both append at the same offsets and each overwrites what the
 * other acknowledged. The lock is an OS file lock ({@code flock}/{@code fcntl} through {@link FileChannel#tryLock}),
 * so it is released when the process dies, a SIGKILL included, and the next start does not need to clean up.
 * Take it before reading or writing anything else in the directory.
 */
public final class DirectoryLock implements AutoCloseable {

    public static final String LOCK_FILE = ".lock";

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates {@code dir} if it is missing and locks it, or throws {@link DirectoryInUseException} when another
     * process (or another broker in this JVM) holds the lock.
     */
    public static DirectoryLock acquire(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(LOCK_FILE);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this JVM: another broker in the same process
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new DirectoryInUseException(dir, file);
        }
        return new DirectoryLock(file, channel, lock);
    }

    public Path file() {
        return file;
    }

    /** Releases the lock; the file stays, as Kafka's does. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
