package dev.spool.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.config.SaslLogin;
import dev.spool.broker.metadata.ScramCredential;
import dev.spool.broker.security.PlainExchange;
import dev.spool.broker.security.SaslExchange;
import dev.spool.broker.security.ScramExchange;
import dev.spool.broker.security.ScramMechanism;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The node's SCRAM and PLAIN logins against the broker's own server side of each, as two nodes run them. */
class SaslClientMechanismTest {

    private static final byte[] SALT = "a salt of sixteen".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void theRightPasswordLogsInAndTheServersProofIsChecked(ScramMechanism mechanism) throws IOException {
        ScramExchange server = new ScramExchange(mechanism, (user, id) -> user.equals("node,1")
                ? credential(mechanism, "s3cret") : null);
        ScramClient client = new ScramClient(new SaslLogin(mechanism.saslName(), "node,1", "s3cret"));

        SaslExchange.Step first = server.evaluate(client.first());
        SaslExchange.Step last = server.evaluate(client.next(first.challenge()));

        assertThat(last.isComplete()).isTrue();
        assertThat(last.authenticatedUser()).isEqualTo("node,1");
        assertThat(client.next(last.challenge())).isNull();
        assertThat(client.isComplete()).isTrue();
    }

    @Test
    void aWrongPasswordIsRefusedByTheServer() throws IOException {
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_512;
        ScramExchange server = new ScramExchange(mechanism, (user, id) -> credential(mechanism, "s3cret"));
        ScramClient client = new ScramClient(new SaslLogin(mechanism.saslName(), "node", "guess"));

        SaslExchange.Step first = server.evaluate(client.first());

        assertThat(server.evaluate(client.next(first.challenge())).isFailed()).isTrue();
    }

    @Test
    void aServerThatDoesNotKnowTheCredentialIsNotBelieved() throws IOException {
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_256;
        ScramClient client = new ScramClient(new SaslLogin(mechanism.saslName(), "node", "s3cret"));
        String clientFirst = new String(client.first(), StandardCharsets.UTF_8);
        String nonce = clientFirst.substring(clientFirst.indexOf("r=") + 2) + "server";
        client.next(("r=" + nonce + ",s=" + java.util.Base64.getEncoder().encodeToString(SALT) + ",i=4096")
                .getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> client.next("v=AAAA".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("does not know this user's credentials");
        assertThat(client.isComplete()).isFalse();
    }

    @Test
    void plainSendsTheUsernameAndPasswordTheServerChecks() throws IOException {
        PlainExchange server = new PlainExchange(Map.of("node", "s3cret"));
        SaslClientMechanism client = SaslClientMechanism.of(new SaslLogin("PLAIN", "node", "s3cret"));

        SaslExchange.Step step = server.evaluate(client.first());

        assertThat(step.authenticatedUser()).isEqualTo("node");
        assertThat(client.isComplete()).isTrue();
        assertThat(new PlainExchange(Map.of("node", "other")).evaluate(
                SaslClientMechanism.of(new SaslLogin("PLAIN", "node", "s3cret")).first()).isFailed()).isTrue();
    }

    private static ScramCredential credential(ScramMechanism mechanism, String password) {
        byte[] salted = mechanism.saltedPassword(password, SALT, 4096);
        return new ScramCredential(mechanism.id(), SALT, mechanism.storedKey(salted), mechanism.serverKey(salted), 4096);
    }
}
