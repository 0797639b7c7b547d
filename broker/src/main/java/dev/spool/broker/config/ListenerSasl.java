package dev.spool.broker.config;

import java.util.List;
import java.util.Map;

/**
 * Immutable: the SASL settings in force on one SASL listener ({@link SaslSettings#forListener}): its protocol
 * (SASL_PLAINTEXT or SASL_SSL), the mechanisms it offers in order, PLAIN's users and passwords, and how
 * OAUTHBEARER's tokens are validated (null when it is not offered), and per mechanism the longest life of a session
 * in ms (connections.max.reauth.ms; 0 for none). The passwords are left out of {@link #toString}.
 */
public record ListenerSasl(String listenerName, String securityProtocol, List<String> enabledMechanisms,
                           Map<String, String> plainUsers, OAuthBearerSettings oauthBearer,
                           Map<String, Long> reauthMsByMechanism) {

    @Override
    public String toString() {
        return "ListenerSasl(" + listenerName + ", " + securityProtocol + ", " + enabledMechanisms + ", "
                + plainUsers.size() + " PLAIN users)";
    }
}
