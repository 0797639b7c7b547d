import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;

/**
 * Times a broker's start-up as a client sees it. Single-threaded command line tool.
 *
 * <p>Usage: {@code java -cp KAFKA_LIBS/*:DIR StartupProbe HOST:PORT TIMEOUT_S}. The probe first loads
 * and exercises the Admin client against a port nobody listens on (so class loading and JIT of the
 * client are not charged to the broker), prints {@code WARM}, then waits for a line on standard
 * input: the harness launches the broker and writes its launch time in epoch milliseconds. From
 * then on the probe tries, every 10 ms, to open a TCP connection and then to list topics with a
 * fresh Admin client (a Metadata request). It prints {@code SERVED <epoch_ms>} when the first list
 * succeeds and exits 0; it exits 1 when the timeout passes first.
 */
public final class StartupProbe {
    private StartupProbe() {
    }

    private static Admin admin(String bootstrap, int timeoutMs) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "spool-bench-startup-probe");
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "10");
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "20");
        config.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "10");
        config.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "20");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
        return Admin.create(config);
    }

    private static boolean portOpen(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 100);
            return true;
        } catch (java.io.IOException notYet) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        long timeoutMs = Long.parseLong(args[1]) * 1000;
        String host = bootstrap.substring(0, bootstrap.lastIndexOf(':'));
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));

        // Warm-up against the closed port: expected to time out.
        try (Admin warm = admin(host + ":1", 200)) {
            warm.listTopics(new ListTopicsOptions().timeoutMs(200)).names().get(1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException expected) {
            System.out.println("WARM (" + expected.getClass().getSimpleName() + " as expected)");
        }
        System.out.flush();
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();

        long deadlineMs = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadlineMs) {
            if (!portOpen(host, port)) {
                Thread.sleep(10);
                continue;
            }
            try (Admin admin = admin(bootstrap, 3000)) {
                admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(4, TimeUnit.SECONDS);
                System.out.println("SERVED " + System.currentTimeMillis());
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException notReady) {
                System.out.println("not ready: " + notReady);
                Thread.sleep(10);
            }
        }
        System.out.println("TIMEOUT");
        System.exit(1);
    }
}
