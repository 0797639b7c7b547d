package dev.spool.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Stateless: whole directory trees on disk. */
public final class FileTrees {

    private static final int WALKS = 3;

    private FileTrees() {
    }

    /**
     * Deletes {@code root} and everything under it, deepest first; nothing when it does not exist. Files
     * that vanish meanwhile (a segment deleter working in the same directory) are walked over again.
     */
    public static void deleteRecursively(Path root) throws IOException {
        for (int walk = 1; ; walk++) {
            try {
                List<Path> paths;
                try (Stream<Path> tree = Files.walk(root)) {
                    paths = tree.sorted(Comparator.reverseOrder()).toList();
                } catch (UncheckedIOException e) {
                    throw e.getCause(); // Files.walk's way of reporting an entry that vanished
                }
                for (Path path : paths) {
                    Files.deleteIfExists(path);
                }
                return;
            } catch (NoSuchFileException e) {
                if (!Files.exists(root)) {
                    return;
                }
                if (walk == WALKS) {
                    throw e;
                }
            }
        }
    }
}
