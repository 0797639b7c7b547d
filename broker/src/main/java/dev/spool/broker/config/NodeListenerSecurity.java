package dev.spool.broker.config;

/**
 * Immutable: how this node connects to one listener of the other nodes (the inter-broker listener, or the
 * controller listener): the listener's security protocol, its TLS settings when it speaks TLS (null otherwise), and
 * the SASL login when it speaks SASL (null otherwise). Built by {@link InterNodeSecurity}.
 *
 * @param verifyHostname whether the peer's certificate must name the host connected to
 *                       ({@code ssl.endpoint.identification.algorithm=https}, Kafka's default)
 */
public record NodeListenerSecurity(String listenerName, String securityProtocol, ListenerTls tls,
                                   boolean verifyHostname, SaslLogin sasl) {

    /** PLAINTEXT, as a node that has no such listener to secure connects. */
    public static NodeListenerSecurity plaintext(String listenerName) {
        return new NodeListenerSecurity(listenerName, ListenerSecurity.PLAINTEXT, null, false, null);
    }

    public boolean isPlaintext() {
        return tls == null && sasl == null;
    }
}
