package dev.spool.broker.metadata;

/**
 * Immutable: one user's credential for one SCRAM mechanism, as Kafka keeps it in a UserScramCredentialRecord: the
 * salt, the iteration count, and the stored and server keys derived from the salted password (never the password).
 * {@code mechanism} is the record's id (1 SCRAM-SHA-256, 2 SCRAM-SHA-512).
 */
public record ScramCredential(byte mechanism, byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
}
