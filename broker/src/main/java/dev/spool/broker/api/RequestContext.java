package dev.spool.broker.api;

import dev.spool.protocol.message.ApiKey;
import java.net.SocketAddress;

/**
 * Who sent a request and in which shape: API, version, correlation id, client id, peer address, and the
 * connection's identity (listener, security protocol, principal). Immutable.
 */
public record RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId,
                             SocketAddress peer, ConnectionIdentity connection) {

    /** A request on a PLAINTEXT listener named PLAINTEXT, from nobody authenticated. */
    public RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId, SocketAddress peer) {
        this(apiKey, apiVersion, correlationId, clientId, peer, ConnectionIdentity.plaintext("PLAINTEXT"));
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
