package dev.spool.broker;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code spool server [--config FILE] [--override key=value]...}: runs one broker in the foreground
 * until SIGTERM or SIGINT. Settings are Kafka's property names; overrides win over the file.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    private static final String USAGE = "usage: spool server [--config FILE] [--override key=value]...";

    private Main() {
    }

    public static void main(String[] args) {
        Map<String, String> properties;
        try {
            properties = parseArguments(args);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("spool: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Broker broker;
        try {
            broker = Broker.start(new BrokerConfig(properties));
        } catch (ConfigException e) {
            System.err.println("spool: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        } catch (Exception e) {
            LOG.error("Spool broker failed to start", e);
            System.exit(1);
            return;
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
    }

    static Map<String, String> parseArguments(String[] args) throws IOException {
        if (args.length == 0 || !args[0].equals("server")) {
            throw new IllegalArgumentException("expected the command 'server'");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if ((arg.equals("--config") || arg.equals("--override")) && i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            switch (arg) {
                case "--config" -> properties.putAll(loadProperties(Path.of(args[++i])));
                case "--override" -> {
                    String override = args[++i];
                    int equals = override.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--override takes key=value, got '" + override + "'");
                    }
                    overrides.put(override.substring(0, equals).trim(), override.substring(equals + 1).trim());
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        properties.putAll(overrides);
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
