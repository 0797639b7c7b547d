package dev.spool.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OAuthBearerExchangeTest {

    private static final long NOW = 1_800_000_000_000L;

    private final UnsecuredTokenValidator validator = new UnsecuredTokenValidator("sub", "scope", List.of(), 0,
            () -> NOW);

    private static byte[] initial(String authorizationId, String token) {
        return ("n," + (authorizationId == null ? "" : "a=" + authorizationId) + ",\u0001auth=Bearer " + token
                + "\u0001\u0001").getBytes(StandardCharsets.UTF_8);
    }

    private static String token(Map<String, ?> claims) {
        return TestTokens.unsecured(claims);
    }

    @Test
    void aValidUnsecuredTokenAuthenticatesItsSubject() {
        SaslExchange.Step step = new OAuthBearerExchange(validator).evaluate(
                initial(null, token(Map.of("sub", "alice", "exp", NOW / 1000 + 60, "iat", NOW / 1000))));

        assertThat(step.isComplete()).isTrue();
        assertThat(step.authenticatedUser()).isEqualTo("alice");
        assertThat(step.challenge()).isEmpty();
    }

    @Test
    void extensionsAndAMatchingAuthorizationIdAreAccepted() {
        byte[] message = ("n,a=alice,\u0001auth=Bearer " + token(Map.of("sub", "alice", "exp", NOW / 1000 + 60))
                + "\u0001traceId=42\u0001\u0001").getBytes(StandardCharsets.UTF_8);

        assertThat(new OAuthBearerExchange(validator).evaluate(message).authenticatedUser()).isEqualTo("alice");
    }

    @Test
    void anExpiredTokenIsAnsweredWithTheRfcErrorThenFailsOnTheClientsAcknowledgement() {
        OAuthBearerExchange exchange = new OAuthBearerExchange(validator);

        SaslExchange.Step error = exchange.evaluate(initial(null, token(Map.of("sub", "alice", "exp", NOW / 1000 - 1))));
        assertThat(error.isComplete()).isFalse();
        assertThat(error.isFailed()).isFalse();
        assertThat(new String(error.challenge(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");

        SaslExchange.Step failed = exchange.evaluate(new byte[] {1});
        assertThat(failed.isFailed()).isTrue();
        assertThat(failed.failure()).as("what the client is told").contains("invalid_token").doesNotContain("expired");
        assertThat(failed.reason()).as("what the broker logs").contains("invalid_token").contains("expired");
    }

    @Test
    void aMissingRequiredScopeIsInsufficientScope() {
        OAuthBearerExchange exchange = new OAuthBearerExchange(new UnsecuredTokenValidator("sub", "scope",
                List.of("write"), 0, () -> NOW));

        SaslExchange.Step error = exchange.evaluate(initial(null,
                token(Map.of("sub", "alice", "exp", NOW / 1000 + 60, "scope", "read"))));

        assertThat(new String(error.challenge(), StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"insufficient_scope\",\"scope\":\"write\"}");
    }

    @Test
    void anAuthorizationIdOtherThanThePrincipalIsRefused() {
        SaslExchange.Step step = new OAuthBearerExchange(validator).evaluate(
                initial("mallory", token(Map.of("sub", "alice", "exp", NOW / 1000 + 60))));

        assertThat(step.isFailed()).isTrue();
        assertThat(step.failure()).contains("mallory").contains("alice");
    }

    @Test
    void malformedMessagesAndTokensAreRefused() {
        assertThat(new OAuthBearerExchange(validator).evaluate("auth=Bearer x".getBytes(StandardCharsets.UTF_8))
                .isFailed()).isTrue();
        assertThat(new OAuthBearerExchange(validator).evaluate("n,,\u0001\u0001".getBytes(StandardCharsets.UTF_8))
                .failure()).contains("no auth key");
        assertThat(new OAuthBearerExchange(validator).evaluate("n,,\u0001auth=Basic abc\u0001\u0001"
                .getBytes(StandardCharsets.UTF_8)).failure()).contains("not \"Bearer <token>\"");
        // A signed-looking token is not an unsecured one; nor is one without a subject.
        assertThat(new OAuthBearerExchange(validator).evaluate(initial(null, "eyJhbGciOiJSUzI1NiJ9.e30.c2ln"))
                .challenge()).isNotEmpty();
        assertThat(new OAuthBearerExchange(validator).evaluate(initial(null, token(Map.of("exp", NOW / 1000 + 60))))
                .challenge()).isNotEmpty();
    }

    /** 500 KB of key=value pairs (under the 512 KiB a client may send before authenticating) is read in one pass. */
    @Test
    void aHugeMessageOfPairsIsReadWithoutRecursion() {
        StringBuilder message = new StringBuilder("n,,\u0001auth=Bearer " + token(Map.of("sub", "alice",
                "exp", NOW / 1000 + 60)) + "\u0001");
        while (message.length() < 500_000) {
            message.append("a=\u0001");
        }
        message.append('\u0001');

        assertThat(new OAuthBearerExchange(validator).evaluate(message.toString().getBytes(StandardCharsets.UTF_8))
                .authenticatedUser()).isEqualTo("alice");
    }
}
