package dev.spool.broker.api;

import dev.spool.protocol.message.ApiKey;
import java.net.SocketAddress;

/**
 * Who sent a request and in which shape: API, version, correlation id, client id, peer address, the
 * connection's identity (listener, security protocol, principal), and what the sender may do ({@link Access#ALL}
 * until {@link ApiAuthorization} narrows it). Immutable.
 */
public record RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId,
                             SocketAddress peer, ConnectionIdentity connection, Access access) {

    /** A request on a PLAINTEXT listener named PLAINTEXT, from nobody authenticated. */
    public RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId, SocketAddress peer) {
        this(apiKey, apiVersion, correlationId, clientId, peer, ConnectionIdentity.plaintext("PLAINTEXT"));
    }

    /** A request on that connection, not yet authorized. */
    public RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId, SocketAddress peer,
                          ConnectionIdentity connection) {
        this(apiKey, apiVersion, correlationId, clientId, peer, connection, Access.ALL);
    }

    /** This request, its sender allowed {@code access} only. */
    public RequestContext withAccess(Access access) {
        return new RequestContext(apiKey, apiVersion, correlationId, clientId, peer, connection, access);
    }

    public Principal principal() {
        return connection.principal();
    }

    @Override
    public String toString() {
        return apiKey.displayName + " v" + apiVersion + " #" + correlationId + " from " + clientId + "@" + peer
                + " (" + connection.principal() + " on " + connection.listenerName() + ")";
    }
}
