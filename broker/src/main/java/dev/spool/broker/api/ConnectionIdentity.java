package dev.spool.broker.api;

/**
 * Immutable. What a connection is, fixed when it is accepted (and, with SASL, once it authenticates): the
 * listener it came in on (its name in {@code listeners}), that listener's security protocol and the principal.
 */
public record ConnectionIdentity(String listenerName, String securityProtocol, Principal principal) {

    /** A connection on a PLAINTEXT listener of that name: nobody is authenticated there. */
    public static ConnectionIdentity plaintext(String listenerName) {
        return new ConnectionIdentity(listenerName, "PLAINTEXT", Principal.ANONYMOUS);
    }
}
