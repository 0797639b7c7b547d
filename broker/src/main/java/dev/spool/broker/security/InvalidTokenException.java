package dev.spool.broker.security;

/**
 * Immutable. A bearer token refused: {@code status} is what RFC 7628 tells the client ({@code invalid_token}, or
 * {@code insufficient_scope} with the {@code scope} it lacks), the message says why, for the broker's log.
 */
public final class InvalidTokenException extends Exception {

    private final String status;
    private final String scope;

    InvalidTokenException(String reason) {
        this("invalid_token", null, reason);
    }

    InvalidTokenException(String status, String scope, String reason) {
        super(reason);
        this.status = status;
        this.scope = scope;
    }

    /** The RFC 7628 error the server sends before failing the exchange. */
    String errorJson() {
        return scope == null ? "{\"status\":\"" + status + "\"}"
                : "{\"status\":\"" + status + "\",\"scope\":\"" + scope.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }
}
