package dev.spool.broker.client;

import dev.spool.broker.config.SaslLogin;
import java.io.IOException;

/**
 * The client side of one SASL exchange: the message sent first, then the answer to each challenge of the node,
 * until {@link #isComplete}. Not thread-safe: one per login.
 */
interface SaslClientMechanism {

    /** The client's first message. */
    byte[] first();

    /**
     * The answer to the node's {@code challenge}, or null when the exchange ends with it.
     *
     * @throws IOException when the challenge is malformed or does not prove the node knows the credentials
     */
    byte[] next(byte[] challenge) throws IOException;

    boolean isComplete();

    /** The exchange of {@code login}'s mechanism: PLAIN or SCRAM-SHA-256/512. */
    static SaslClientMechanism of(SaslLogin login) {
        return login.mechanism().equals("PLAIN") ? new PlainClient(login) : new ScramClient(login);
    }
}
