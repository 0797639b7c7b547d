package dev.spool.it.reliability;

import dev.spool.it.ExternalCommand;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small dedicated ext4 file system for disk-trouble tests: an image file made with mkfs.ext4 and
 * loop-mounted (needs root and a kernel that allows loop devices; {@link #mount} says why not
 * otherwise). It can be filled up to the last block, emptied again, and made to fail like a broken disk. Not
 * thread-safe.
 */
public final class SmallFileSystem implements AutoCloseable {

    private final Path image;
    private final Path mountPoint;
    private final Path filler;

    private SmallFileSystem(Path image, Path mountPoint) {
        this.image = image;
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    /** Mounts a new file system of {@code megabytes}; throws with the commands' output when it cannot. */
    public static SmallFileSystem mount(int megabytes) throws IOException, InterruptedException {
        Path image = Files.createTempFile("spool-small-fs-", ".img");
        Path mountPoint = Files.createTempDirectory("spool-small-fs-");
        run("truncate", "-s", megabytes + "M", image.toString());
        run("mkfs.ext4", "-q", "-F", "-m", "0", image.toString());
        run("mount", "-o", "loop", image.toString(), mountPoint.toString());
        return new SmallFileSystem(image, mountPoint);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        ExternalCommand.Result result = ExternalCommand.run(Path.of("/"), 60, command);
        if (result.exitCode() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + result.exitCode() + ": " + result.output());
        }
    }

    public Path root() {
        return mountPoint;
    }

    /** The image file the file system lives in. */
    public Path image() {
        return image;
    }

    /** Writes a filler file until the file system has no block left. */
    public void fill() throws IOException {
        try (FileOutputStream out = new FileOutputStream(filler.toFile(), true)) {
            byte[] chunk = new byte[1 << 20];
            while (true) {
                try {
                    out.write(chunk);
                } catch (IOException full) {
                    break;
                }
            }
            byte[] small = new byte[512];
            while (true) {
                try {
                    out.write(small);
                    out.getFD().sync();
                } catch (IOException full) {
                    break;
                }
            }
        }
    }

    /** Gives the space back. */
    public void empty() throws IOException {
        Files.deleteIfExists(filler);
    }

    /**
     * Makes the file system fail as on an I/O error: ext4's {@code abort} mount option, which works with
     * files open (a plain read-only remount does not); every write then fails (EROFS) until unmounted.
     */
    public void abort() throws IOException, InterruptedException {
        run("mount", "-o", "remount,abort", mountPoint.toString());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        ExternalCommand.run(Path.of("/"), 60, "umount", "-l", mountPoint.toString());
        Files.deleteIfExists(image);
        Files.deleteIfExists(mountPoint);
    }
}
