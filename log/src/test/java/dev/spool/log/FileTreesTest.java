package dev.spool.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {

    @TempDir
    Path dir;

    @Test
    void aTreeIsDeletedDeepestFirstAndItsNeighboursAreKept() throws Exception {
        Path root = Files.createDirectories(dir.resolve("topic-0/sub"));
        Files.writeString(root.resolve("00000000000000000000.log"), "x");
        Files.writeString(dir.resolve("topic-0/00000000000000000000.index"), "y");
        Path neighbour = Files.writeString(dir.resolve("topic-1"), "z");

        FileTrees.deleteRecursively(dir.resolve("topic-0"));

        assertThat(dir.resolve("topic-0")).doesNotExist();
        assertThat(neighbour).exists();
    }

    @Test
    void aMissingTreeIsNothingToDo() throws Exception {
        FileTrees.deleteRecursively(dir.resolve("never-made"));

        assertThat(dir).exists();
    }
}
