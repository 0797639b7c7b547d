package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeliberateFaultTest {

    @Test
    void aBrokerIsWholeUnlessTheJvmOptionNamesAFault() {
        assertThat(DeliberateFault.ACTIVE).as("the test JVM names none").isEqualTo(DeliberateFault.NONE);
        assertThat(DeliberateFault.fromProperty(null)).isEqualTo(DeliberateFault.NONE);
        assertThat(DeliberateFault.fromProperty(" ")).isEqualTo(DeliberateFault.NONE);
        assertThat(DeliberateFault.fromProperty("skip-truncation")).isEqualTo(DeliberateFault.SKIP_TRUNCATION);
        assertThat(DeliberateFault.fromProperty("ACKS_ALL_BEFORE_ISR")).isEqualTo(DeliberateFault.ACKS_ALL_BEFORE_ISR);
    }

    @Test
    void anUnknownFaultStopsTheBrokerRatherThanRunningWhole() {
        assertThatThrownBy(() -> DeliberateFault.fromProperty("lose-everything"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LOSE_EVERYTHING");
    }
}
