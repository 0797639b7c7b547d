package dev.spool.broker.cli;

import dev.spool.broker.Broker;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ConfigException;
import dev.spool.log.DirectoryInUseException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Called once, on the main thread: runs one broker with the given settings until SIGTERM or SIGINT stops it,
 * and gives the exit code of {@code spool server}.
 */
final class ServerRun {

    private static final Logger LOG = LoggerFactory.getLogger(ServerRun.class);

    private ServerRun() {
    }

    /**
     * {@link SpoolCommand#USAGE_ERROR} for an invalid setting, 1 when start-up failed. After a stop by signal
     * the value does not matter: the JVM is already exiting, once the shutdown hook has closed the broker, with
     * its status for the signal (143 for SIGTERM, 130 for SIGINT), as Kafka's does.
     */
    static int run(Map<String, String> properties, PrintWriter err) {
        Broker broker;
        try {
            BrokerConfig config = new BrokerConfig(properties);
            LOG.info("Starting Spool {} with settings {}", SpoolVersion.version(), config.loggableValues());
            // Like Kafka, the process stops when it cannot go on (every log dir failed); the shutdown hook
            // below still closes the rest, so the dirs that are fine get their clean-shutdown marker.
            broker = Broker.start(config, reason -> System.exit(1));
        } catch (ConfigException e) {
            err.println("spool: invalid configuration: " + e.getMessage());
            err.flush();
            return SpoolCommand.USAGE_ERROR;
        } catch (DirectoryInUseException e) {
            // Expected when an operator starts a second broker on the same data: one line, no stack trace.
            LOG.error("Spool broker failed to start: {}", e.getMessage());
            return 1;
        } catch (Exception e) {
            LOG.error("Spool broker failed to start", e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "spool-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
