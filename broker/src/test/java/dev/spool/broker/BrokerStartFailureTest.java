package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.config.BrokerConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A start that fails after most layers are up closes every one of them: threads, logs and the directory lock. */
class BrokerStartFailureTest {

    @Test
    void aListenerThatCannotBindClosesEveryLayerStartedBeforeIt(@TempDir Path dir) throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            BrokerConfig config = new BrokerConfig(Map.of("log.dirs", dir.toString(),
                    "listeners", "PLAINTEXT://127.0.0.1:" + taken.getLocalPort()));
            // The network layer is the last one: storage, metadata, partitions and coordinators have started.
            assertThatThrownBy(() -> Broker.start(config))
                    .hasMessageContaining("Cannot bind listener PLAINTEXT to 127.0.0.1:" + taken.getLocalPort());
        }

        assertThat(threadsLeftBehind(before)).as("threads the failed start left running").isEmpty();
        // The data directory's lock was released and its logs closed: the same directory starts again.
        try (Broker broker = Broker.start(new BrokerConfig(Map.of("log.dirs", dir.toString(),
                "listeners", "PLAINTEXT://127.0.0.1:0")))) {
            assertThat(broker.boundEndpoints()).hasSize(1);
        }
    }

    /** The broker's threads (spool-*, Netty's event loops) started since {@code before} and alive after up to 10 s. */
    private static List<String> threadsLeftBehind(Set<Thread> before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> alive;
        do {
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> !before.contains(thread) && thread.isAlive())
                    .map(Thread::getName)
                    .filter(name -> name.startsWith("spool-") || name.contains("EventLoop"))
                    .toList();
            if (!alive.isEmpty()) {
                Thread.sleep(20);
            }
        } while (!alive.isEmpty() && System.nanoTime() < deadline);
        return alive;
    }
}
