package dev.spool.broker.security;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SASL/OAUTHBEARER (RFC 7628) on the server's side: the client's one message,
 * {@code n,[a=authzid],^Aauth=Bearer <token>^A[key=value^A]...^A}, carries a bearer token the validator checks.
 * A refused token is answered as the RFC says, with an error JSON the client acknowledges ({@code ^A}) before the
 * exchange fails; extensions (KIP-342) are accepted and not used. An authorization id other than the token's
 * principal is refused, as Kafka refuses it. Not thread-safe: one connection's.
 */
public final class OAuthBearerExchange implements SaslExchange {

    private static final char SEPARATOR = '\u0001';
    private static final Pattern INITIAL = Pattern.compile(
            "n,(?:a=([^,]*))?,\u0001((?:[A-Za-z]+=[\\x21-\\x7E \t\r\n]*\u0001)*)\u0001");
    private static final Pattern BEARER = Pattern.compile("[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9._~+/=-]+)");

    private final TokenValidator validator;
    private String pendingFailure;

    public OAuthBearerExchange(TokenValidator validator) {
        this.validator = validator;
    }

    @Override
    public Step evaluate(byte[] response) {
        if (pendingFailure != null) {
            // The client's acknowledgement of the error (a lone ^A) or anything else: the exchange fails now.
            return Step.failed(pendingFailure);
        }
        Matcher initial = INITIAL.matcher(new String(response, StandardCharsets.UTF_8));
        if (!initial.matches()) {
            return Step.failed("Authentication failed: invalid OAUTHBEARER initial client response");
        }
        String token = null;
        for (String pair : initial.group(2).split(String.valueOf(SEPARATOR))) {
            if (pair.startsWith("auth=")) {
                Matcher bearer = BEARER.matcher(pair.substring("auth=".length()));
                if (!bearer.matches()) {
                    return Step.failed("Authentication failed: the auth value is not \"Bearer <token>\"");
                }
                token = bearer.group(1);
            }
        }
        if (token == null) {
            return Step.failed("Authentication failed: no auth key in the OAUTHBEARER initial client response");
        }
        TokenValidator.ValidToken valid;
        try {
            valid = validator.validate(token);
        } catch (InvalidTokenException invalid) {
            pendingFailure = "Authentication failed: " + invalid.errorJson() + " (" + invalid.getMessage() + ")";
            return Step.challenge(invalid.errorJson().getBytes(StandardCharsets.UTF_8));
        }
        String authorizationId = initial.group(1) == null ? "" : initial.group(1).replace("=2C", ",").replace("=3D", "=");
        if (!authorizationId.isEmpty() && !authorizationId.equals(valid.principal())) {
            return Step.failed("Authentication failed: Client requested an authorization id (" + authorizationId
                    + ") that is different from the token's principal name (" + valid.principal() + ")");
        }
        return Step.succeeded(valid.principal());
    }
}
