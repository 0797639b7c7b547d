package dev.spool.broker.security;

import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Kafka's validator of unsecured tokens ({@code "alg":"none"}, no signature: for tests and development only, as
 * Kafka says of its own): the principal is the string claim {@code principalClaim}, the token must not have expired,
 * and must grant every one of {@code requiredScopes}. Kafka's JAAS options {@code unsecuredValidatorPrincipalClaimName},
 * {@code unsecuredValidatorScopeClaimName}, {@code unsecuredValidatorRequiredScope} and
 * {@code unsecuredValidatorAllowableClockSkewMs} set them. Immutable.
 */
public final class UnsecuredTokenValidator implements TokenValidator {

    private final String principalClaim;
    private final String scopeClaim;
    private final List<String> requiredScopes;
    private final long clockSkewMs;
    private final LongSupplier clock;

    public UnsecuredTokenValidator(String principalClaim, String scopeClaim, List<String> requiredScopes,
                                   long clockSkewMs, LongSupplier clock) {
        this.principalClaim = principalClaim;
        this.scopeClaim = scopeClaim;
        this.requiredScopes = List.copyOf(requiredScopes);
        this.clockSkewMs = clockSkewMs;
        this.clock = clock;
    }

    @Override
    public ValidToken validate(String token) throws InvalidTokenException {
        Jwt jwt = Jwt.parse(token);
        if (!"none".equals(jwt.algorithm())) {
            throw new InvalidTokenException("an unsecured token must say \"alg\":\"none\", not " + jwt.algorithm());
        }
        if (jwt.signature().length != 0) {
            throw new InvalidTokenException("an unsecured token carries no signature");
        }
        String principal = jwt.requiredString(principalClaim);
        long expires = jwt.checkTimes(clock.getAsLong(), clockSkewMs, false);
        Set<String> scopes = jwt.strings(scopeClaim);
        for (String required : requiredScopes) {
            if (!scopes.contains(required)) {
                throw new InvalidTokenException("insufficient_scope", String.join(" ", requiredScopes),
                        "the token does not grant the required scope " + required);
            }
        }
        return new ValidToken(principal, scopes, expires);
    }
}
