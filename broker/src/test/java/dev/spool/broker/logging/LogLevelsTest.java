package dev.spool.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class LogLevelsTest {

    @Test
    void infoUnlessSaidOtherwise() {
        assertThat(LogLevels.from(new Properties()).thresholdOf("dev.spool.broker.Broker")).isEqualTo(Level.INFO.toInt());
    }

    @Test
    void nettyIsAtWarnUnlessSaidOtherwise() {
        assertThat(LogLevels.from(new Properties()).thresholdOf("io.netty.channel.X")).isEqualTo(Level.WARN.toInt());
        Properties properties = new Properties();
        properties.setProperty("spool.log.level.io.netty", "DEBUG");
        assertThat(LogLevels.from(properties).thresholdOf("io.netty.channel.X")).isEqualTo(Level.DEBUG.toInt());
    }

    @Test
    void theLongestPrefixAtADotWins() {
        Properties properties = new Properties();
        properties.setProperty("spool.log.level", "warn");
        properties.setProperty("spool.log.level.dev.spool", "DEBUG");
        properties.setProperty("spool.log.level.dev.spool.log", " trace ");
        LogLevels levels = LogLevels.from(properties);

        assertThat(levels.thresholdOf("dev.spool.log.LogManager")).isEqualTo(Level.TRACE.toInt());
        assertThat(levels.thresholdOf("dev.spool.log")).isEqualTo(Level.TRACE.toInt());
        assertThat(levels.thresholdOf("dev.spool.logging.X")).isEqualTo(Level.DEBUG.toInt());
        assertThat(levels.thresholdOf("dev.spool.broker.Broker")).isEqualTo(Level.DEBUG.toInt());
        assertThat(levels.thresholdOf("io.netty.channel.X")).isEqualTo(Level.WARN.toInt());
    }

    @Test
    void offSilencesALogger() {
        Properties properties = new Properties();
        properties.setProperty("spool.log.level.io.netty", "off");

        assertThat(LogLevels.from(properties).thresholdOf("io.netty.X")).isEqualTo(LogLevels.OFF);
    }

    @Test
    void aValueThatIsNoLevelIsNamed() {
        Properties properties = new Properties();
        properties.setProperty("spool.log.level.io.netty", "quiet");

        assertThatThrownBy(() -> LogLevels.from(properties))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spool.log.level.io.netty=quiet");
    }
}
