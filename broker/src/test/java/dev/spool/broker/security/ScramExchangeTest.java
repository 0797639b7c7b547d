package dev.spool.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.ScramCredential;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** RFC 7677's SCRAM-SHA-256 exchange (user "user", password "pencil"), played against the server side. */
class ScramExchangeTest {

    private static final String CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final String CLIENT_FINAL = "c=biws,r=" + CLIENT_NONCE + SERVER_NONCE
            + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

    private static ScramCredential pencil() {
        ScramMechanism sha256 = ScramMechanism.SCRAM_SHA_256;
        byte[] salted = sha256.saltedPassword("pencil", SALT, 4096);
        return new ScramCredential(sha256.id(), SALT, sha256.storedKey(salted), sha256.serverKey(salted), 4096);
    }

    private static ScramExchange exchange(ScramCredential credential) {
        return new ScramExchange(ScramMechanism.SCRAM_SHA_256,
                (user, mechanism) -> user.equals("user") && mechanism == 1 ? credential : null, () -> SERVER_NONCE);
    }

    private static SaslExchange.Step send(ScramExchange exchange, String message) {
        return exchange.evaluate(message.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRfcExchangeSucceedsWithTheRfcsServerMessages() {
        ScramExchange exchange = exchange(pencil());

        SaslExchange.Step first = send(exchange, "n,,n=user,r=" + CLIENT_NONCE);
        assertThat(new String(first.challenge(), StandardCharsets.UTF_8))
                .isEqualTo("r=" + CLIENT_NONCE + SERVER_NONCE + ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
        assertThat(first.isComplete() || first.isFailed()).isFalse();

        SaslExchange.Step last = send(exchange, CLIENT_FINAL);
        assertThat(last.authenticatedUser()).isEqualTo("user");
        assertThat(new String(last.challenge(), StandardCharsets.UTF_8))
                .isEqualTo("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
    }

    @Test
    void aWrongProofAnUnknownUserOrAnotherNonceFails() {
        ScramExchange wrongPassword = new ScramExchange(ScramMechanism.SCRAM_SHA_256, (user, mechanism) -> {
            byte[] salted = ScramMechanism.SCRAM_SHA_256.saltedPassword("pencil2", SALT, 4096);
            return new ScramCredential((byte) 1, SALT, ScramMechanism.SCRAM_SHA_256.storedKey(salted),
                    ScramMechanism.SCRAM_SHA_256.serverKey(salted), 4096);
        }, () -> SERVER_NONCE);
        send(wrongPassword, "n,,n=user,r=" + CLIENT_NONCE);
        assertThat(send(wrongPassword, CLIENT_FINAL).failure()).contains("invalid credentials");

        assertThat(send(exchange(pencil()), "n,,n=nobody,r=" + CLIENT_NONCE).isFailed()).isTrue();

        ScramExchange otherNonce = exchange(pencil());
        send(otherNonce, "n,,n=user,r=" + CLIENT_NONCE);
        assertThat(send(otherNonce, CLIENT_FINAL.replace(SERVER_NONCE, "x")).isFailed()).isTrue();
    }

    @Test
    void channelBindingAndExtensionsAreRefused() {
        assertThat(send(exchange(pencil()), "p=tls-unique,,n=user,r=" + CLIENT_NONCE).isFailed()).isTrue();
        assertThat(send(exchange(pencil()), "n,,n=user,r=" + CLIENT_NONCE + ",tokenauth=true").isFailed()).isTrue();
    }
}
