package dev.spool.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.event.Level;

class ConsoleLoggerTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final ConsoleLoggerFactory factory = new ConsoleLoggerFactory(
            new LogLevels(Level.INFO.toInt(), Map.of("io.netty", Level.WARN.toInt(), "noisy", LogLevels.OFF)),
            new LogOutput(new PrintStream(bytes, true, StandardCharsets.UTF_8)));

    @Test
    void formatsArgumentsAndKeepsATrailingThrowableForTheStackTrace() {
        Logger log = factory.getLogger("dev.spool.broker.Broker");

        log.info("started in {} ms, listening on {}", 12, "[PLAINTEXT://127.0.0.1:9092]");
        log.error("segment {} unreadable", "00000.log", new IllegalStateException("bad magic"));

        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains(" INFO dev.spool.broker.Broker - started in 12 ms, listening on "
                + "[PLAINTEXT://127.0.0.1:9092]\n");
        assertThat(output).contains(" ERROR dev.spool.broker.Broker - segment 00000.log unreadable\n"
                + "java.lang.IllegalStateException: bad magic\n");
    }

    @Test
    void dropsEventsBelowTheLoggersLevel() {
        Logger netty = factory.getLogger("io.netty.channel.Channel");
        Logger broker = factory.getLogger("dev.spool.broker.Broker");

        netty.info("chatty");
        broker.debug("details");
        netty.warn("worth saying");
        factory.getLogger("noisy.Thing").error("never");

        assertThat(netty.isInfoEnabled()).isFalse();
        assertThat(broker.isDebugEnabled()).isFalse();
        assertThat(broker.isInfoEnabled()).isTrue();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("chatty", "details", "never")
                .contains("worth saying");
        assertThat(factory.getLogger("io.netty.channel.Channel")).isSameAs(netty);
    }
}
