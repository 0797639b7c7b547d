package dev.spool.broker.api;

/**
 * Immutable. Who a connection authenticated as, in Kafka's form {@code type:name}: {@code User:ANONYMOUS} on a
 * connection without authentication, else the SASL user or the TLS certificate's mapped name. ACLs (and quotas)
 * are decided on it, never on the client id a client chooses for itself.
 */
public record Principal(String type, String name) {

    public static final Principal ANONYMOUS = new Principal("User", "ANONYMOUS");
    /**
     * A node's requests to its own handlers (the active controller answering its own broker): never authorized, and
     * recognised by identity, so no connection can claim it.
     */
    public static final Principal THIS_NODE = new Principal("Node", "self");

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
