package dev.spool.broker.cli;

import dev.spool.broker.Broker;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): {@code spool server [--config FILE] [--override key=value]...}:
 * runs one broker in the foreground until SIGTERM or SIGINT. Settings are Kafka's property names; overrides win
 * over the file.
 */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a broker in the foreground until SIGTERM or Ctrl-C.",
            "Settings have Kafka's names (see CONFIGURATION.md); --override wins over --config."})
public final class ServerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "A server.properties file.")
    Path configFile;

    @Option(names = "--override", paramLabel = "KEY=VALUE", description = "A setting that wins over the file; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        Map<String, String> properties;
        try {
            properties = properties();
        } catch (IOException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Broker broker;
        try {
            BrokerConfig config = new BrokerConfig(properties);
            LOG.info("Starting Spool {} with settings {}", SpoolVersion.version(), config.explicitValues());
            // Like Kafka, the process stops when it cannot go on (every log dir failed); the shutdown hook
            // below still closes the rest, so the dirs that are fine get their clean-shutdown marker.
            broker = Broker.start(config, reason -> System.exit(1));
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("spool: invalid configuration: " + e.getMessage());
            return SpoolCommand.USAGE_ERROR;
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

    /** The settings: the file's, then the overrides over them. */
    Map<String, String> properties() throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        if (configFile != null) {
            properties.putAll(loadProperties(configFile));
        }
        for (String override : overrides) {
            int equals = override.indexOf('=');
            if (equals <= 0 || override.substring(0, equals).isBlank()) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--override takes key=value, got '" + override + "'");
            }
            properties.put(override.substring(0, equals).trim(), override.substring(equals + 1).trim());
        }
        return properties;
    }

    private static Map<String, String> loadProperties(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("config file " + file + " does not exist");
        }
        Properties loaded = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            loaded.load(reader);
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (String name : loaded.stringPropertyNames()) {
            result.put(name, loaded.getProperty(name).trim());
        }
        return result;
    }
}
