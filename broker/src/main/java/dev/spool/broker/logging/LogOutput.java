package dev.spool.broker.logging;

import java.io.PrintStream;
import java.util.TimeZone;
import org.slf4j.event.Level;

/**
 * Thread-safe: writes log events as lines {@code 2026-11-29T19:45:59.758 INFO logger.name - message}, local time,
 * each line and its stack trace whole (one event's lines are never interleaved with another's).
 */
final class LogOutput {

    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final PrintStream out;
    private final TimeZone zone = TimeZone.getDefault();

    LogOutput(PrintStream out) {
        this.out = out;
    }

    void write(long epochMillis, Level level, String loggerName, String message, Throwable throwable) {
        StringBuilder line = new StringBuilder(64 + loggerName.length() + (message == null ? 4 : message.length()));
        appendLocalTime(line, epochMillis + zone.getOffset(epochMillis));
        line.append(' ').append(level).append(' ').append(loggerName).append(" - ").append(message);
        synchronized (out) {
            out.println(line);
            if (throwable != null) {
                throwable.printStackTrace(out);
            }
            out.flush();
        }
    }

    /** ISO-8601 date and time to the millisecond of a count of milliseconds since 1970-01-01T00:00 (local). */
    static void appendLocalTime(StringBuilder line, long localMillis) {
        long days = Math.floorDiv(localMillis, MILLIS_PER_DAY);
        long millisOfDay = Math.floorMod(localMillis, MILLIS_PER_DAY);
        // Days to a civil date in the proleptic Gregorian calendar, by 400-year eras starting on March 1st.
        long shifted = days + 719_468;
        long era = Math.floorDiv(shifted, 146_097);
        long dayOfEra = shifted - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        long month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        line.append(year).append('-');
        pad(line, month, 2).append('-');
        pad(line, day, 2).append('T');
        pad(line, millisOfDay / 3_600_000, 2).append(':');
        pad(line, millisOfDay / 60_000 % 60, 2).append(':');
        pad(line, millisOfDay / 1000 % 60, 2).append('.');
        pad(line, millisOfDay % 1000, 3);
    }

    private static StringBuilder pad(StringBuilder line, long value, int digits) {
        for (long limit = 10; digits > 1; digits--, limit *= 10) {
            if (value < limit) {
                line.append('0');
            }
        }
        return line.append(value);
    }
}
