package dev.spool.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryLockTest {

    @TempDir
    Path dir;

    @Test
    void aLockedDirectoryIsRefusedUntilReleased() throws Exception {
        Path data = dir.resolve("data");
        try (DirectoryLock lock = DirectoryLock.acquire(data)) {
            assertThat(lock.file()).isEqualTo(data.resolve(".lock")).exists();
            assertThatThrownBy(() -> DirectoryLock.acquire(data))
                    .isInstanceOf(DirectoryInUseException.class)
                    .hasMessageContaining("Data directory " + data + " is in use")
                    .hasMessageContaining(data.resolve(".lock").toString());
        }
        try (DirectoryLock again = DirectoryLock.acquire(data)) {
            assertThat(again.file()).exists();
        }
    }
}
