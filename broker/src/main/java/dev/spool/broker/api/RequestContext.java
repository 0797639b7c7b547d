package dev.spool.broker.api;

import dev.spool.protocol.message.ApiKey;
import java.net.SocketAddress;

/**
 * Who sent a request and in which shape: API, version, correlation id, client id and peer address.
 * Immutable.
 */
public record RequestContext(ApiKey apiKey, short apiVersion, int correlationId, String clientId,
                             SocketAddress peer) {

    @Override
    public String toString() {
        return apiKey.displayName + " v" + apiVersion + " #" + correlationId + " from " + clientId + "@" + peer;
    }
}
