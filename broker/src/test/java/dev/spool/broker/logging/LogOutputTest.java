package dev.spool.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class LogOutputTest {

    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");

    /** From 1900 to 2400: leap years, century rules, the epoch and the days either side of it. */
    @Property(tries = 5000)
    void localTimeIsIsoToTheMillisecond(@ForAll @LongRange(min = -2_208_988_800_000L, max = 13_569_465_600_000L)
                                        long millis) {
        StringBuilder line = new StringBuilder();
        LogOutput.appendLocalTime(line, millis);

        assertThat(line.toString()).isEqualTo(
                ISO_MILLIS.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC)));
    }

    @Test
    void writesOneLinePerEventWithTheStackTraceAfterIt() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LogOutput output = new LogOutput(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        output.write(System.currentTimeMillis(), Level.WARN, "dev.spool.X", "disk at 91%", null);
        output.write(System.currentTimeMillis(), Level.ERROR, "dev.spool.Y", "failed", new IOException("no space"));

        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines[0]).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN dev\\.spool\\.X - disk at 91%");
        assertThat(lines[1]).endsWith(" ERROR dev.spool.Y - failed");
        assertThat(lines[2]).isEqualTo("java.io.IOException: no space");
        assertThat(lines[3]).contains("at dev.spool.broker.logging.LogOutputTest");
    }
}
