package dev.spool.broker.logging;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** Thread-safe: a named logger that writes the events at or above its level to a {@link LogOutput}. */
final class ConsoleLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    private final int threshold;
    private final transient LogOutput output;

    /** {@code threshold}: the lowest {@link Level#toInt()} logged ({@link LogLevels#OFF}: none). */
    ConsoleLogger(String name, int threshold, LogOutput output) {
        this.name = name;
        this.threshold = threshold;
        this.output = output;
    }

    @Override
    public boolean isTraceEnabled() {
        return Level.TRACE.toInt() >= threshold;
    }

    @Override
    public boolean isDebugEnabled() {
        return Level.DEBUG.toInt() >= threshold;
    }

    @Override
    public boolean isInfoEnabled() {
        return Level.INFO.toInt() >= threshold;
    }

    @Override
    public boolean isWarnEnabled() {
        return Level.WARN.toInt() >= threshold;
    }

    @Override
    public boolean isErrorEnabled() {
        return Level.ERROR.toInt() >= threshold;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        output.write(System.currentTimeMillis(), level, name, MessageFormatter.basicArrayFormat(messagePattern, arguments),
                throwable);
    }
}
