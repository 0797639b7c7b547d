package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedSpoolTest {

    @Test
    void startsOnAFreePortInWellUnderASecondAndStopsCleaningUp() throws IOException {
        Spool.embedded().close(); // the first start in a JVM also loads the classes
        long startNanos = System.nanoTime();
        EmbeddedSpool spool = Spool.embedded();
        long startMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        Path dataDir = spool.dataDir();
        int port = spool.port();
        try {
            assertThat(startMs).as("start-up time in ms").isLessThan(500);
            assertThat(spool.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            assertThat(port).isPositive();
            assertThat(dataDir.resolve("meta.properties")).exists();
            try (Socket socket = new Socket("127.0.0.1", port)) {
                assertThat(socket.isConnected()).isTrue();
            }
        } finally {
            spool.close();
        }
        spool.close();
        assertThat(Files.exists(dataDir)).as("temporary data deleted").isFalse();
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void keepsADataDirectoryTheCallerChose(@TempDir Path dir) throws IOException {
        try (EmbeddedSpool spool = Spool.embedded(Map.of("log.dirs", dir.toString(), "node.id", "3"))) {
            assertThat(spool.dataDir()).isEqualTo(dir);
            assertThat(spool.broker().cluster().controllerId()).isEqualTo(3);
        }
        assertThat(dir.resolve("meta.properties")).exists();
    }
}
