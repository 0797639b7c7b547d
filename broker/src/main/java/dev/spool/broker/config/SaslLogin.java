package dev.spool.broker.config;

/**
 * Immutable: how a node logs in with SASL to a listener of the other nodes: the mechanism (PLAIN, SCRAM-SHA-256 or
 * SCRAM-SHA-512) and the username and password of the listener's JAAS configuration. The password is left out of
 * {@link #toString}.
 */
public record SaslLogin(String mechanism, String username, String password) {

    @Override
    public String toString() {
        return "SaslLogin(" + mechanism + ", " + username + ")";
    }
}
