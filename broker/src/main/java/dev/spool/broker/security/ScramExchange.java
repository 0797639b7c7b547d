package dev.spool.broker.security;

import dev.spool.broker.metadata.ScramCredential;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SCRAM (RFC 5802) on the server's side, against the credentials in the cluster's metadata: the client's first
 * message names the user and a nonce; the server answers with its nonce, the user's salt and iteration count; the
 * client's final message proves it knows the salted password, checked against the stored key; the server's final
 * message proves the server knows the server key. Channel binding is not offered (gs2 header {@code n} or
 * {@code y}, as Kafka); Kafka's extensions after the nonce (such as {@code tokenauth}) are refused, since
 * delegation tokens are not served. Not thread-safe: one connection's.
 */
public final class ScramExchange implements SaslExchange {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern CLIENT_FIRST = Pattern.compile(
            "(?<gs2>[ny],(?:a=(?<authzid>[^,]*))?,)n=(?<user>[^,]*),r=(?<nonce>[^,]+)(?<extensions>,.*)?");
    private static final Pattern CLIENT_FINAL = Pattern.compile(
            "(?<withoutProof>c=(?<binding>[^,]*),r=(?<nonce>[^,]+)(?:,[^,]*)*?),p=(?<proof>[^,]+)");

    private enum State { FIRST, FINAL, DONE }

    private final ScramMechanism mechanism;
    private final BiFunction<String, Byte, ScramCredential> credentials;
    private final Supplier<String> serverNonces;
    private State state = State.FIRST;
    private String user;
    private ScramCredential credential;
    private String gs2Header;
    private String nonce;
    private String clientFirstBare;
    private String serverFirst;

    /** {@code credentials} gives a user's credential for a mechanism id, or null. */
    public ScramExchange(ScramMechanism mechanism, BiFunction<String, Byte, ScramCredential> credentials) {
        this(mechanism, credentials, () -> new BigInteger(130, RANDOM).toString(Character.MAX_RADIX));
    }

    /** With chosen server nonces (the RFC's test vectors). */
    ScramExchange(ScramMechanism mechanism, BiFunction<String, Byte, ScramCredential> credentials,
                  Supplier<String> serverNonces) {
        this.mechanism = mechanism;
        this.credentials = credentials;
        this.serverNonces = serverNonces;
    }

    @Override
    public Step evaluate(byte[] response) {
        String message = new String(response, StandardCharsets.UTF_8);
        return switch (state) {
            case FIRST -> first(message);
            case FINAL -> last(message);
            case DONE -> Step.failed("Authentication failed: unexpected message after SCRAM completed");
        };
    }

    private Step first(String message) {
        Matcher first = CLIENT_FIRST.matcher(message);
        if (!first.matches()) {
            return Step.failed("Authentication failed: invalid SCRAM client-first message");
        }
        if (first.group("extensions") != null) {
            return Step.failed("Authentication failed: SCRAM extensions (delegation tokens) are not supported");
        }
        user = unescape(first.group("user"));
        String authorizationId = first.group("authzid");
        if (authorizationId != null && !authorizationId.isEmpty() && !unescape(authorizationId).equals(user)) {
            return Step.failed("Authentication failed: Client requested an authorization id that is different "
                    + "from username");
        }
        credential = credentials.apply(user, mechanism.id());
        if (credential == null) {
            return invalid();
        }
        gs2Header = first.group("gs2");
        nonce = first.group("nonce") + serverNonces.get();
        clientFirstBare = message.substring(gs2Header.length());
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credential.salt()) + ",i="
                + credential.iterations();
        state = State.FINAL;
        return Step.challenge(serverFirst.getBytes(StandardCharsets.UTF_8));
    }

    private Step last(String message) {
        state = State.DONE;
        Matcher last = CLIENT_FINAL.matcher(message);
        // endsWith, as Kafka checks it: librdkafka (2.0) echoes its own nonce before the combined one, and the
        // proof covers the message as sent either way.
        if (!last.matches() || !last.group("nonce").endsWith(nonce) || !last.group("binding")
                .equals(Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8)))) {
            return invalid();
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(last.group("proof"));
        } catch (IllegalArgumentException e) {
            return invalid();
        }
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + last.group("withoutProof"))
                .getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = mechanism.hmac(credential.storedKey(), authMessage);
        if (proof.length != clientSignature.length) {
            return invalid();
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        if (!MessageDigest.isEqual(mechanism.hash(clientKey), credential.storedKey())) {
            return invalid();
        }
        String serverFinal = "v=" + Base64.getEncoder().encodeToString(
                mechanism.hmac(credential.serverKey(), authMessage));
        return Step.succeeded(user, serverFinal.getBytes(StandardCharsets.UTF_8));
    }

    /** Kafka's words for any wrong user or password: no hint which. */
    private Step invalid() {
        state = State.DONE;
        return Step.failed("Authentication failed during authentication due to invalid credentials with SASL "
                + "mechanism " + mechanism.saslName());
    }

    /** saslname: "=2C" is a comma and "=3D" an equals sign. */
    private static String unescape(String name) {
        return name.replace("=2C", ",").replace("=3D", "=");
    }
}
