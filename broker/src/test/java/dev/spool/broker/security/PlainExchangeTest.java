package dev.spool.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainExchangeTest {

    private final PlainExchange exchange = new PlainExchange(Map.of("alice", "alice-secret"));

    private SaslExchange.Step login(String message) {
        return exchange.evaluate(message.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRightPasswordAuthenticatesTheUser() {
        assertThat(login("\0alice\0alice-secret").authenticatedUser()).isEqualTo("alice");
        assertThat(login("alice\0alice\0alice-secret").authenticatedUser()).as("authzid = user").isEqualTo("alice");
    }

    @Test
    void aWrongPasswordAndAnUnknownUserFailAlike() {
        assertThat(login("\0alice\0wrong").failure()).isEqualTo(PlainExchange.INVALID);
        assertThat(login("\0bob\0alice-secret").failure()).isEqualTo(PlainExchange.INVALID);
        assertThat(login("\0alice\0alice-secre").failure()).isEqualTo(PlainExchange.INVALID);
    }

    @Test
    void malformedMessagesAndAnotherAuthorizationIdFail() {
        assertThat(login("alice-secret").isFailed()).isTrue();
        assertThat(login("\0alice\0alice-secret\0more").isFailed()).isTrue();
        assertThat(login("\0\0alice-secret").failure()).contains("username not specified");
        assertThat(login("bob\0alice\0alice-secret").failure()).contains("authorization id");
    }
}
