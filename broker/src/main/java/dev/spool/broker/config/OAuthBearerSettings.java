package dev.spool.broker.config;

import java.util.List;
import java.util.Set;

/**
 * Immutable: how one listener validates SASL/OAUTHBEARER tokens, with Kafka's settings. {@code jwksUrl} null means
 * Kafka's default, unsecured tokens (for tests and development) under the JAAS options
 * {@code unsecuredValidator*}; set (with Kafka's {@code OAuthBearerValidatorCallbackHandler} as the listener's
 * server callback handler), signed tokens checked against that key set.
 */
public record OAuthBearerSettings(String jwksUrl, long jwksRefreshMs, String subClaim, String scopeClaim,
                                  Set<String> expectedAudiences, String expectedIssuer, long clockSkewMs,
                                  List<String> unsecuredRequiredScopes) {

    public boolean unsecured() {
        return jwksUrl == null;
    }
}
