package dev.spool.broker.client;

import dev.spool.broker.config.SaslLogin;
import io.netty.handler.ssl.SslContext;

/**
 * Immutable: how a connection to a node is secured. {@code tls}: the client TLS context (which says whether the
 * node's certificate must name the host connected to), or null for none; {@code sasl}: the login sent before any
 * other request, or null for none.
 */
public record ChannelSecurity(SslContext tls, SaslLogin sasl) {

    /** Neither TLS nor SASL. */
    public static final ChannelSecurity PLAINTEXT = new ChannelSecurity(null, null);

    public boolean isPlaintext() {
        return tls == null && sasl == null;
    }
}
