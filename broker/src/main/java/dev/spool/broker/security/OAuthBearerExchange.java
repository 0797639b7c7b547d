package dev.spool.broker.security;

import java.nio.charset.StandardCharsets;

/**
 * SASL/OAUTHBEARER (RFC 7628) on the server's side: the client's one message,
 * {@code n,[a=authzid],^Aauth=Bearer <token>^A[key=value^A]...^A}, carries a bearer token the validator checks.
 * A refused token is answered as the RFC says, with an error JSON the client acknowledges ({@code ^A}) before the
 * exchange fails; extensions (KIP-342) are accepted and not used. An authorization id other than the token's
 * principal is refused, as Kafka refuses it. Not thread-safe: one connection's.
 */
public final class OAuthBearerExchange implements SaslExchange {

    private static final char SEPARATOR = '\u0001';
    private static final String GS2_HEADER = "n,";
    private static final String BEARER = "bearer ";

    private final TokenValidator validator;
    private String pendingFailure;
    private String pendingReason;

    public OAuthBearerExchange(TokenValidator validator) {
        this.validator = validator;
    }

    @Override
    public Step evaluate(byte[] response) {
        if (pendingFailure != null) {
            // The client's acknowledgement of the error (a lone ^A) or anything else: the exchange fails now.
            return Step.failed(pendingFailure, pendingReason);
        }
        // Read by hand, not by a regular expression: a message of many pairs must not recurse per pair.
        String message = new String(response, StandardCharsets.UTF_8);
        int headerEnd = message.indexOf(',', GS2_HEADER.length());
        if (!message.startsWith(GS2_HEADER) || headerEnd < 0 || headerEnd + 1 >= message.length()
                || message.charAt(headerEnd + 1) != SEPARATOR || !message.endsWith("" + SEPARATOR + SEPARATOR)) {
            return Step.failed("Authentication failed: invalid OAUTHBEARER initial client response");
        }
        String authorization = message.substring(GS2_HEADER.length(), headerEnd);
        if (!authorization.isEmpty() && !authorization.startsWith("a=")) {
            return Step.failed("Authentication failed: invalid OAUTHBEARER initial client response");
        }
        String token = null;
        int pairStart = headerEnd + 2;
        int pairsEnd = message.length() - 1;
        while (pairStart < pairsEnd) {
            int pairEnd = message.indexOf(SEPARATOR, pairStart);
            String pair = message.substring(pairStart, pairEnd);
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                return Step.failed("Authentication failed: invalid OAUTHBEARER initial client response");
            }
            if (pair.startsWith("auth=")) {
                String value = pair.substring("auth=".length());
                if (!value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                    return Step.failed("Authentication failed: the auth value is not \"Bearer <token>\"");
                }
                token = value.substring(BEARER.length()).trim();
            }
            pairStart = pairEnd + 1;
        }
        if (token == null || token.isEmpty()) {
            return Step.failed("Authentication failed: no auth key in the OAUTHBEARER initial client response");
        }
        TokenValidator.ValidToken valid;
        try {
            valid = validator.validate(token);
        } catch (InvalidTokenException invalid) {
            // The client learns RFC 7628's status only; why the token was refused is for the broker's log.
            pendingFailure = "Authentication failed: " + invalid.errorJson();
            pendingReason = pendingFailure + ": " + invalid.getMessage();
            return Step.challenge(invalid.errorJson().getBytes(StandardCharsets.UTF_8));
        }
        String authorizationId = authorization.isEmpty() ? ""
                : authorization.substring(2).replace("=2C", ",").replace("=3D", "=");
        if (!authorizationId.isEmpty() && !authorizationId.equals(valid.principal())) {
            return Step.failed("Authentication failed: Client requested an authorization id (" + authorizationId
                    + ") that is different from the token's principal name (" + valid.principal() + ")");
        }
        return Step.succeededUntil(valid.principal(), valid.expiresAtMs());
    }
}
