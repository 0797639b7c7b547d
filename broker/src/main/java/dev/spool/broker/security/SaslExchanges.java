package dev.spool.broker.security;

import dev.spool.broker.config.ListenerSasl;
import dev.spool.broker.config.OAuthBearerSettings;
import dev.spool.broker.metadata.ScramCredential;
import java.io.IOException;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts each connection's exchange for the mechanism it chose, on one SASL listener: PLAIN against the listener's
 * users, SCRAM against the credentials in the metadata, OAUTHBEARER through the listener's token validator, which
 * lives as long as the listener. Thread-safe; {@link #close} stops the validator's key refreshing.
 */
public final class SaslExchanges implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SaslExchanges.class);

    private final ListenerSasl sasl;
    private final BiFunction<String, Byte, ScramCredential> scramCredentials;
    private final TokenValidator tokens;

    private SaslExchanges(ListenerSasl sasl, BiFunction<String, Byte, ScramCredential> scramCredentials,
                          TokenValidator tokens) {
        this.sasl = sasl;
        this.scramCredentials = scramCredentials;
        this.tokens = tokens;
    }

    /**
     * The exchanges of listener {@code sasl}; {@code scramCredentials} gives a user's SCRAM credential for a mechanism
     * id, or null. An OAUTHBEARER key set that cannot be read fails here, before the listener opens.
     */
    public static SaslExchanges of(ListenerSasl sasl, BiFunction<String, Byte, ScramCredential> scramCredentials,
                                   LongSupplier clock) throws IOException {
        OAuthBearerSettings oauth = sasl.oauthBearer();
        if (oauth == null) {
            return new SaslExchanges(sasl, scramCredentials, null);
        }
        if (oauth.unsecured()) {
            LOG.warn("Listener {} takes UNSECURED OAUTHBEARER tokens (\"alg\":\"none\", no signature): anyone can "
                    + "name any principal. For tests and development only; set its "
                    + "oauthbearer.sasl.server.callback.handler.class and sasl.oauthbearer.jwks.endpoint.url to "
                    + "validate signed tokens", sasl.listenerName());
            return new SaslExchanges(sasl, scramCredentials, new UnsecuredTokenValidator(oauth.subClaim(),
                    oauth.scopeClaim(), oauth.unsecuredRequiredScopes(), oauth.clockSkewMs(), clock));
        }
        JwksTokenValidator validator;
        try {
            validator = new JwksTokenValidator(JwksTokenValidator.sourceOf(oauth.jwksUrl()),
                    new JwksTokenValidator.Expectations(oauth.subClaim(), oauth.scopeClaim(),
                            oauth.expectedAudiences(), oauth.expectedIssuer(), oauth.clockSkewMs()),
                    oauth.jwksRefreshMs(), clock);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("listener " + sasl.listenerName() + " cannot read the JSON Web Key Set at "
                    + oauth.jwksUrl() + " (sasl.oauthbearer.jwks.endpoint.url): " + e.getMessage(), e);
        }
        return new SaslExchanges(sasl, scramCredentials, validator);
    }

    /** A new exchange for {@code mechanism}, one the listener enables. */
    public SaslExchange start(String mechanism) {
        ScramMechanism scram = ScramMechanism.ofSaslName(mechanism);
        if (scram != null) {
            return new ScramExchange(scram, scramCredentials);
        }
        if (mechanism.equals("OAUTHBEARER")) {
            return new OAuthBearerExchange(tokens);
        }
        return new PlainExchange(sasl.plainUsers());
    }

    @Override
    public void close() {
        if (tokens instanceof JwksTokenValidator refreshing) {
            refreshing.close();
        }
    }
}
