package dev.spool.broker.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Stateless: the settings of {@code spool server}: those of a {@code server.properties} file, then the
 * {@code --override key=value} ones over them, whatever their order on the command line.
 */
final class ServerSettings {

    private ServerSettings() {
    }

    /**
     * The file's settings (none when {@code configFile} is null) with the overrides over them.
     *
     * @throws IOException when the file is missing or cannot be read
     * @throws IllegalArgumentException when an override is not {@code key=value}
     */
    static Map<String, String> read(Path configFile, List<String> overrides) throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        if (configFile != null) {
            properties.putAll(load(configFile));
        }
        for (String override : overrides) {
            int equals = override.indexOf('=');
            if (equals <= 0 || override.substring(0, equals).isBlank()) {
                throw new IllegalArgumentException("--override takes key=value, got '" + override + "'");
            }
            properties.put(override.substring(0, equals).trim(), override.substring(equals + 1).trim());
        }
        return properties;
    }

    private static Map<String, String> load(Path file) throws IOException {
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
