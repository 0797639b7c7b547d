package dev.spool.broker.logging;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Immutable: the level of each logger: {@code spool.log.level} for all (default INFO, and WARN for
 * {@code io.netty} and {@code org.apache.ratis}), and {@code spool.log.level.PREFIX} for the loggers whose names start with that prefix at a dot (the longest such
 * prefix wins), e.g. {@code -Dspool.log.level.io.netty=WARN -Dspool.log.level.dev.spool.log=DEBUG}. A level is
 * TRACE, DEBUG, INFO, WARN, ERROR or OFF, held as the lowest {@link Level#toInt()} that is logged.
 */
final class LogLevels {

    static final String PROPERTY = "spool.log.level";
    /** The threshold of OFF: above every level. */
    static final int OFF = Integer.MAX_VALUE;
    /**
     * Netty logs its internals at INFO and DEBUG, Ratis every setting it reads and (through its own Netty) every
     * connection at INFO; Spool says what matters of the quorum itself. Ratis' leader also warns, with a stack
     * trace, every tenth retry (about four a second) of its appends to a voter that is down: kafka-metadata-quorum
     * describe --replication shows that voter's lag instead. A property for the prefix overrides it.
     */
    private static final Map<String, Integer> DEFAULT_THRESHOLD_BY_PREFIX = Map.of("io.netty", Level.WARN.toInt(),
            "org.apache.ratis", Level.WARN.toInt(), "org.apache.ratis.server.leader.LogAppender", Level.ERROR.toInt());

    private final int rootThreshold;
    private final Map<String, Integer> thresholdByPrefix;

    LogLevels(int rootThreshold, Map<String, Integer> thresholdByPrefix) {
        this.rootThreshold = rootThreshold;
        this.thresholdByPrefix = Map.copyOf(thresholdByPrefix);
    }

    /** The levels of the system properties; INFO for all, said on standard error, when one of them is no level. */
    static LogLevels fromSystemProperties() {
        try {
            return from(System.getProperties());
        } catch (IllegalArgumentException e) {
            System.err.println("spool: " + e.getMessage() + "; logging at INFO");
            return new LogLevels(Level.INFO.toInt(), DEFAULT_THRESHOLD_BY_PREFIX);
        }
    }

    /**
     * The levels these properties set.
     *
     * @throws IllegalArgumentException naming the property whose value is not a level
     */
    static LogLevels from(Properties properties) {
        int root = Level.INFO.toInt();
        Map<String, Integer> byPrefix = new TreeMap<>(DEFAULT_THRESHOLD_BY_PREFIX);
        for (String key : properties.stringPropertyNames()) {
            if (key.equals(PROPERTY)) {
                root = threshold(key, properties.getProperty(key));
            } else if (key.startsWith(PROPERTY + ".")) {
                byPrefix.put(key.substring(PROPERTY.length() + 1), threshold(key, properties.getProperty(key)));
            }
        }
        return new LogLevels(root, byPrefix);
    }

    private static int threshold(String key, String value) {
        String name = value.trim().toUpperCase(Locale.ROOT);
        if (name.equals("OFF")) {
            return OFF;
        }
        try {
            return Level.valueOf(name).toInt();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "=" + value + " is not one of TRACE, DEBUG, INFO, WARN, ERROR, OFF",
                    e);
        }
    }

    /** The lowest {@link Level#toInt()} the logger of this name logs ({@link #OFF}: none). */
    int thresholdOf(String loggerName) {
        String name = loggerName;
        while (true) {
            Integer threshold = thresholdByPrefix.get(name);
            if (threshold != null) {
                return threshold;
            }
            int dot = name.lastIndexOf('.');
            if (dot < 0) {
                return rootThreshold;
            }
            name = name.substring(0, dot);
        }
    }
}
