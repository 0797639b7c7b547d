package dev.spool.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * SASL/PLAIN (RFC 4616) against the users of the listener's JAAS configuration: one message,
 * {@code [authzid] NUL authcid NUL passwd}, checked in time that does not depend on where a wrong password
 * differs. An authorization id other than the user is refused, as Kafka refuses it. Not thread-safe.
 */
public final class PlainExchange implements SaslExchange {

    /** What a failed login is told, whatever failed: no hint whether the user exists. */
    static final String INVALID = "Authentication failed: Invalid username or password";

    private final Map<String, String> users;

    public PlainExchange(Map<String, String> users) {
        this.users = users;
    }

    @Override
    public Step evaluate(byte[] response) {
        String message = new String(response, StandardCharsets.UTF_8);
        int first = message.indexOf('\0');
        int second = first < 0 ? -1 : message.indexOf('\0', first + 1);
        if (second < 0 || message.indexOf('\0', second + 1) >= 0) {
            return Step.failed("Authentication failed: invalid SASL/PLAIN response: expected 3 tokens");
        }
        String authorizationId = message.substring(0, first);
        String user = message.substring(first + 1, second);
        String password = message.substring(second + 1);
        if (user.isEmpty()) {
            return Step.failed("Authentication failed: username not specified");
        }
        if (!authorizationId.isEmpty() && !authorizationId.equals(user)) {
            return Step.failed("Authentication failed: Client requested an authorization id that is different "
                    + "from username");
        }
        String expected = users.get(user);
        // Compared even for an unknown user, so that a wrong user and a wrong password take the same time.
        boolean matches = MessageDigest.isEqual(password.getBytes(StandardCharsets.UTF_8),
                (expected == null ? "\0" + password : expected).getBytes(StandardCharsets.UTF_8));
        return matches && expected != null ? Step.succeeded(user) : Step.failed(INVALID);
    }
}
