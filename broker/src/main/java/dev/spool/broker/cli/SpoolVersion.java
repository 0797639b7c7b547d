package dev.spool.broker.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * Thread-safe (stateless): the version of this build, from the {@code spool-version.properties} Maven writes at
 * build time.
 */
public final class SpoolVersion implements CommandLine.IVersionProvider {

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        try (InputStream in = SpoolVersion.class.getResourceAsStream("/dev/spool/broker/spool-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read spool-version.properties", e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"spool " + version() + " (Java " + Runtime.version() + ")"};
    }
}
