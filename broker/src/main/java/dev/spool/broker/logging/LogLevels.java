package dev.spool.broker.logging;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Immutable: the level of each logger: {@code spool.log.level} for all (default INFO), and
 * {@code spool.log.level.PREFIX} for the loggers whose names start with that prefix at a dot (the longest such
 * prefix wins), e.g. {@code -Dspool.log.level.io.netty=WARN -Dspool.log.level.dev.spool.log=DEBUG}.
 */
final class LogLevels {

    static final String PROPERTY = "spool.log.level";

    private final Level rootLevel;
    private final Map<String, Level> byPrefix;

    LogLevels(Level rootLevel, Map<String, Level> byPrefix) {
        this.rootLevel = rootLevel;
        this.byPrefix = Map.copyOf(byPrefix);
    }

    static LogLevels fromSystemProperties() {
        return from(System.getProperties());
    }

    /**
     * The levels these properties set.
     *
     * @throws IllegalArgumentException naming the property whose value is not a level
     */
    static LogLevels from(Properties properties) {
        Level root = Level.INFO;
        Map<String, Level> byPrefix = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.equals(PROPERTY)) {
                root = parse(key, properties.getProperty(key));
            } else if (key.startsWith(PROPERTY + ".")) {
                byPrefix.put(key.substring(PROPERTY.length() + 1), parse(key, properties.getProperty(key)));
            }
        }
        return new LogLevels(root, byPrefix);
    }

    private static Level parse(String key, String value) {
        try {
            return Level.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "=" + value + " is not one of TRACE, DEBUG, INFO, WARN, ERROR", e);
        }
    }

    /** The level of the logger of this name. */
    Level levelOf(String loggerName) {
        String name = loggerName;
        while (true) {
            Level level = byPrefix.get(name);
            if (level != null) {
                return level;
            }
            int dot = name.lastIndexOf('.');
            if (dot < 0) {
                return rootLevel;
            }
            name = name.substring(0, dot);
        }
    }
}
