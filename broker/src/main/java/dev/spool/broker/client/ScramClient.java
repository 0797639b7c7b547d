package dev.spool.broker.client;

import dev.spool.broker.config.SaslLogin;
import dev.spool.broker.security.ScramMechanism;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SCRAM (RFC 5802) on the client's side, without channel binding (gs2 header {@code n,,}), as Kafka's clients: the
 * first message names the user and a nonce; the answer to the node's salt and iteration count proves the client
 * knows the password; the node's final message must prove it knows the server key, or the login fails.
 */
final class ScramClient implements SaslClientMechanism {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SERVER_FIRST = Pattern.compile("r=(?<nonce>[^,]+),s=(?<salt>[^,]+),i=(?<iterations>\\d+)(?:,.*)?");
    private static final String GS2_HEADER = "n,,";

    private final ScramMechanism mechanism;
    private final SaslLogin login;
    private final String clientNonce = new BigInteger(130, RANDOM).toString(Character.MAX_RADIX);
    private String clientFirstBare;
    private byte[] expectedServerSignature;
    private boolean complete;

    ScramClient(SaslLogin login) {
        this.mechanism = ScramMechanism.ofSaslName(login.mechanism());
        this.login = login;
    }

    @Override
    public byte[] first() {
        clientFirstBare = "n=" + login.username().replace("=", "=3D").replace(",", "=2C") + ",r=" + clientNonce;
        return (GS2_HEADER + clientFirstBare).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] next(byte[] challenge) throws IOException {
        String message = new String(challenge, StandardCharsets.UTF_8);
        if (expectedServerSignature == null) {
            return clientFinal(message);
        }
        if (!message.startsWith("v=")) {
            throw new IOException("SCRAM login refused: " + message);
        }
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(message.substring(2));
        } catch (IllegalArgumentException e) {
            throw new IOException("Malformed SCRAM server-final message");
        }
        if (!MessageDigest.isEqual(signature, expectedServerSignature)) {
            throw new IOException("The node's SCRAM signature is wrong: it does not know this user's credentials");
        }
        complete = true;
        return null;
    }

    private byte[] clientFinal(String serverFirst) throws IOException {
        Matcher first = SERVER_FIRST.matcher(serverFirst);
        String nonce = first.matches() ? first.group("nonce") : "";
        if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
            throw new IOException("Malformed SCRAM server-first message, or a nonce not extending ours");
        }
        byte[] salt;
        int iterations;
        try {
            salt = Base64.getDecoder().decode(first.group("salt"));
            iterations = Integer.parseInt(first.group("iterations"));
        } catch (IllegalArgumentException e) {
            throw new IOException("Malformed salt or iteration count in a SCRAM server-first message");
        }
        if (iterations < ScramMechanism.MIN_ITERATIONS || iterations > ScramMechanism.MAX_ITERATIONS) {
            throw new IOException("SCRAM iteration count " + iterations + " is outside "
                    + ScramMechanism.MIN_ITERATIONS + "-" + ScramMechanism.MAX_ITERATIONS);
        }
        byte[] saltedPassword = mechanism.saltedPassword(login.password(), salt, iterations);
        byte[] clientKey = mechanism.hmac(saltedPassword, "Client Key".getBytes(StandardCharsets.UTF_8));
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.UTF_8))
                + ",r=" + first.group("nonce");
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = mechanism.hmac(mechanism.storedKey(saltedPassword), authMessage);
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) {
            proof[i] = (byte) (clientKey[i] ^ clientSignature[i]);
        }
        expectedServerSignature = mechanism.hmac(mechanism.serverKey(saltedPassword), authMessage);
        return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
        return complete;
    }
}
