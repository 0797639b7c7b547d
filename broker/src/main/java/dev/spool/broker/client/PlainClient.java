package dev.spool.broker.client;

import dev.spool.broker.config.SaslLogin;
import java.nio.charset.StandardCharsets;

/** SASL PLAIN (RFC 4616): one message, {@code [authzid] NUL username NUL password}, no authzid. */
final class PlainClient implements SaslClientMechanism {

    private final SaslLogin login;
    private boolean sent;

    PlainClient(SaslLogin login) {
        this.login = login;
    }

    @Override
    public byte[] first() {
        sent = true;
        return ("\0" + login.username() + "\0" + login.password()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] next(byte[] challenge) {
        return null;
    }

    @Override
    public boolean isComplete() {
        return sent;
    }
}
