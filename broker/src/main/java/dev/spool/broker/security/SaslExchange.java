package dev.spool.broker.security;

/**
 * One client's authentication by one SASL mechanism, on the server's side: each of the client's messages gets a
 * challenge back, until the exchange succeeds (naming the user) or fails. Not thread-safe: one connection's.
 */
public interface SaslExchange {

    /**
     * Where an exchange is after a client's message. Once complete, {@code credentialExpiresAtMs} is when the
     * credential it proved stops being valid (epoch ms: a bearer token's expiry), or 0 when it does not expire. A
     * failure is what the client is told; {@code reason} may say more, for the broker's log only.
     */
    record Step(byte[] challenge, String authenticatedUser, String failure, String reason,
                long credentialExpiresAtMs) {

        static Step succeeded(String user) {
            return new Step(new byte[0], user, null, null, 0);
        }

        static Step succeeded(String user, byte[] lastChallenge) {
            return new Step(lastChallenge, user, null, null, 0);
        }

        static Step succeededUntil(String user, long credentialExpiresAtMs) {
            return new Step(new byte[0], user, null, null, credentialExpiresAtMs);
        }

        static Step challenge(byte[] challenge) {
            return new Step(challenge, null, null, null, 0);
        }

        static Step failed(String failure) {
            return new Step(new byte[0], null, failure, failure, 0);
        }

        static Step failed(String failure, String reason) {
            return new Step(new byte[0], null, failure, reason, 0);
        }

        public boolean isComplete() {
            return authenticatedUser != null;
        }

        public boolean isFailed() {
            return failure != null;
        }
    }

    /** The answer to the client's next message. */
    Step evaluate(byte[] response);
}
