package dev.spool.broker.api;

/**
 * Immutable. Who a connection authenticated as, in Kafka's form {@code type:name}: {@code User:ANONYMOUS} on a
 * connection without authentication, the only kind Spool serves until SASL and TLS arrive. ACLs and quotas
 * will be decided on it, never on the client id a client chooses for itself.
 */
public record Principal(String type, String name) {

    public static final Principal ANONYMOUS = new Principal("User", "ANONYMOUS");

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
