package dev.spool.broker.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON Web Token in compact serialization (RFC 7519: {@code header.claims.signature}, each part base64url):
 * its header and claims read, the signed bytes and signature kept for a validator to check. Immutable.
 */
record Jwt(Map<String, Object> header, Map<String, Object> claims, byte[] signingInput, byte[] signature) {

    /** {@code token} read; an {@link InvalidTokenException} naming what is malformed. */
    static Jwt parse(String token) throws InvalidTokenException {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw new InvalidTokenException("not a compact JWS: " + parts.length + " parts, not 3");
        }
        try {
            Base64.Decoder base64 = Base64.getUrlDecoder();
            Map<String, Object> header = Json.object(base64.decode(parts[0]));
            Map<String, Object> claims = Json.object(base64.decode(parts[1]));
            byte[] signature = base64.decode(parts[2]);
            byte[] signingInput = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
            return new Jwt(header, claims, signingInput, signature);
        } catch (IllegalArgumentException | IOException e) {
            throw new InvalidTokenException("malformed token: " + e.getMessage());
        }
    }

    /** The header's {@code alg}, or null. */
    String algorithm() {
        return header.get("alg") instanceof String alg ? alg : null;
    }

    /** A string claim; an {@link InvalidTokenException} when it is absent or not a string. */
    String requiredString(String name) throws InvalidTokenException {
        if (claims.get(name) instanceof String value && !value.isBlank()) {
            return value;
        }
        throw new InvalidTokenException("the token has no string claim " + name);
    }

    /** A NumericDate claim (seconds since the epoch, RFC 7519 section 2) in epoch milliseconds, or null if absent. */
    Long timeMs(String name) throws InvalidTokenException {
        Object value = claims.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Number seconds) {
            return (long) (seconds.doubleValue() * 1000);
        }
        throw new InvalidTokenException("the token's claim " + name + " is not a number of seconds");
    }

    /** A claim that is a string or a list of strings (scope, aud), as a set; empty when absent. */
    Set<String> strings(String name) throws InvalidTokenException {
        Object value = claims.get(name);
        Set<String> strings = new LinkedHashSet<>();
        if (value == null) {
            return strings;
        }
        if (value instanceof String text) {
            // One value, as Kafka reads a string scope or audience: not split on spaces.
            if (!text.isBlank()) {
                strings.add(text.trim());
            }
            return strings;
        }
        if (value instanceof List<?> list) {
            for (Object element : list) {
                if (!(element instanceof String text)) {
                    throw new InvalidTokenException("the token's claim " + name + " holds a non-string");
                }
                strings.add(text);
            }
            return strings;
        }
        throw new InvalidTokenException("the token's claim " + name + " is neither a string nor a list of strings");
    }

    /**
     * Checks the times: an expiry ({@code exp}) not passed, a start ({@code nbf}) if present passed, an issue time
     * ({@code iat}; required if {@code issueTimeRequired}) not in the future, each with {@code skewMs} of slack;
     * returns the expiry. A time too large for a long saturates, which only ever makes a token expire later than its
     * claim, and only a signed (or unsecured, test-only) token can claim it.
     */
    long checkTimes(long nowMs, long skewMs, boolean issueTimeRequired) throws InvalidTokenException {
        Long expires = timeMs("exp");
        if (expires == null) {
            throw new InvalidTokenException("the token has no expiry (exp)");
        }
        Long notBefore = timeMs("nbf");
        if (notBefore != null && notBefore > nowMs + skewMs) {
            throw new InvalidTokenException("the token is not valid before " + notBefore + " (now " + nowMs + ")");
        }
        if (issueTimeRequired && timeMs("iat") == null) {
            throw new InvalidTokenException("the token has no issue time (iat)");
        }
        if (nowMs - skewMs >= expires) {
            throw new InvalidTokenException("the token expired at " + expires + " (now " + nowMs + ")");
        }
        Long issued = timeMs("iat");
        if (issued != null && issued > nowMs + skewMs) {
            throw new InvalidTokenException("the token is issued in the future, at " + issued + " (now " + nowMs + ")");
        }
        if (issued != null && expires < issued) {
            throw new InvalidTokenException("the token expires (" + expires + ") before it is issued (" + issued + ")");
        }
        return expires;
    }
}
