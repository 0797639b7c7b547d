package dev.spool.broker.security;

/**
 * One client's authentication by one SASL mechanism, on the server's side: each of the client's messages gets a
 * challenge back, until the exchange succeeds (naming the user) or fails. Not thread-safe: one connection's.
 */
public interface SaslExchange {

    /** Where an exchange is after a client's message. */
    record Step(byte[] challenge, String authenticatedUser, String failure) {

        static Step succeeded(String user) {
            return new Step(new byte[0], user, null);
        }

        static Step succeeded(String user, byte[] lastChallenge) {
            return new Step(lastChallenge, user, null);
        }

        static Step challenge(byte[] challenge) {
            return new Step(challenge, null, null);
        }

        static Step failed(String reason) {
            return new Step(new byte[0], null, reason);
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
