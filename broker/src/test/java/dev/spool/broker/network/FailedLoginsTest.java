package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class FailedLoginsTest {

    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 5000);

    @Test
    void theFirstFailureIsLoggedThenAtMostOneEveryTenSeconds() {
        FailedLogins failures = new FailedLogins();

        assertThat(failures.failed("SASL_SSL", CLIENT, "bad password", 1_000)).isTrue();
        assertThat(failures.failed("SASL_SSL", CLIENT, "bad password", 2_000)).isFalse();
        assertThat(failures.failed("SASL_SSL", CLIENT, "bad password", 10_999)).isFalse();
        assertThat(failures.failed("SASL_SSL", CLIENT, "bad password", 11_000)).isTrue();
    }

    @Test
    void aClockAtAnyValueStillLogsTheFirstFailure() {
        assertThat(new FailedLogins().failed("SASL_SSL", CLIENT, "bad password", 0)).isTrue();
        assertThat(new FailedLogins().failed("SASL_SSL", CLIENT, "bad password", -5_000_000_000L)).isTrue();
    }
}
