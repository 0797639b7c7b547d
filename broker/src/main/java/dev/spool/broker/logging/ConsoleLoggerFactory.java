package dev.spool.broker.logging;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/** Thread-safe: one {@link ConsoleLogger} per name, its level fixed when it is first asked for. */
final class ConsoleLoggerFactory implements ILoggerFactory {

    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final LogLevels levels;
    private final LogOutput output;

    ConsoleLoggerFactory(LogLevels levels, LogOutput output) {
        this.levels = levels;
        this.output = output;
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, key -> new ConsoleLogger(key, levels.thresholdOf(key), output));
    }
}
