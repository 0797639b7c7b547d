package dev.spool.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The SCRAM mechanisms Kafka has (RFC 5802, RFC 7677), by their SASL names and the ids of Kafka's metadata records
 * and admin APIs, with the functions of the exchange: HMAC, the hash, and the stored and server keys derived from a
 * salted password. Kafka accepts 4096 to 16384 iterations. Immutable.
 */
public enum ScramMechanism {
    SCRAM_SHA_256((byte) 1, "SCRAM-SHA-256", "SHA-256", "HmacSHA256"),
    SCRAM_SHA_512((byte) 2, "SCRAM-SHA-512", "SHA-512", "HmacSHA512");

    public static final int MIN_ITERATIONS = 4096;
    public static final int MAX_ITERATIONS = 16384;

    private final byte id;
    private final String saslName;
    private final String hashAlgorithm;
    private final String macAlgorithm;

    ScramMechanism(byte id, String saslName, String hashAlgorithm, String macAlgorithm) {
        this.id = id;
        this.saslName = saslName;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
    }

    public byte id() {
        return id;
    }

    public String saslName() {
        return saslName;
    }

    /** The mechanism of a record's or request's id, or null. */
    public static ScramMechanism ofId(byte id) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.id == id) {
                return mechanism;
            }
        }
        return null;
    }

    /** The mechanism of a SASL name (SCRAM-SHA-256), or null. */
    public static ScramMechanism ofSaslName(String name) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.saslName.equals(name)) {
                return mechanism;
            }
        }
        return null;
    }

    public byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(key, macAlgorithm));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(macAlgorithm + " is missing from this JVM", e);
        }
    }

    public byte[] hash(byte[] message) {
        try {
            return MessageDigest.getInstance(hashAlgorithm).digest(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(hashAlgorithm + " is missing from this JVM", e);
        }
    }

    /** StoredKey := H(HMAC(SaltedPassword, "Client Key")). */
    public byte[] storedKey(byte[] saltedPassword) {
        return hash(hmac(saltedPassword, "Client Key".getBytes(StandardCharsets.US_ASCII)));
    }

    /** ServerKey := HMAC(SaltedPassword, "Server Key"). */
    public byte[] serverKey(byte[] saltedPassword) {
        return hmac(saltedPassword, "Server Key".getBytes(StandardCharsets.US_ASCII));
    }

    /** SaltedPassword := Hi(password, salt, iterations), PBKDF2 with this HMAC (for tests and tools). */
    public byte[] saltedPassword(String password, byte[] salt, int iterations) {
        byte[] block = hmac(password.getBytes(StandardCharsets.UTF_8), concat(salt, new byte[] {0, 0, 0, 1}));
        byte[] result = block.clone();
        for (int i = 1; i < iterations; i++) {
            block = hmac(password.getBytes(StandardCharsets.UTF_8), block);
            for (int j = 0; j < result.length; j++) {
                result[j] ^= block[j];
            }
        }
        return result;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] all = new byte[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
