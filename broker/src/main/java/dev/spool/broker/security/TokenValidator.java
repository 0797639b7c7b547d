package dev.spool.broker.security;

import java.util.Set;

/** Checks the bearer tokens of SASL/OAUTHBEARER and names their principal. Thread-safe. */
public interface TokenValidator {

    /** A token found valid: whose it is, the scopes it grants, and when it expires (epoch ms). */
    record ValidToken(String principal, Set<String> scopes, long expiresAtMs) {
    }

    /** The principal of the compact JWS {@code token}; an {@link InvalidTokenException} saying why not. */
    ValidToken validate(String token) throws InvalidTokenException;
}
