package dev.spool.broker.network;

import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.Principal;
import dev.spool.broker.config.PrincipalMappingRules;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stateless but for its settings, so shared by one listener's connections: once a TLS handshake is done, names the
 * connection's principal, as Kafka does: {@code User:} and the client certificate's distinguished name as the
 * mapping rules turn it; {@code User:ANONYMOUS} without a certificate. A name no rule maps ends the connection.
 * The handshake completes before the first request is decrypted, so every request carries the principal.
 */
@io.netty.channel.ChannelHandler.Sharable
final class TlsPrincipalHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(TlsPrincipalHandler.class);

    private final String listenerName;
    private final PrincipalMappingRules rules;

    TlsPrincipalHandler(String listenerName, PrincipalMappingRules rules) {
        this.listenerName = listenerName;
        this.rules = rules;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent completion && completion.isSuccess()) {
            SSLSession session = ctx.pipeline().get(SslHandler.class).engine().getSession();
            Optional<Principal> principal = principalOf(session);
            if (principal.isEmpty()) {
                LOG.warn("Closing TLS connection from {} on listener {}: no ssl.principal.mapping.rules rule maps its "
                        + "certificate's name {}", ctx.channel().remoteAddress(), listenerName, subjectOf(session));
                ctx.close();
                return;
            }
            ctx.pipeline().get(RequestDispatcher.class).identify(
                    new ConnectionIdentity(listenerName, "SSL", principal.get()));
        }
        ctx.fireUserEventTriggered(event);
    }

    private Optional<Principal> principalOf(SSLSession session) {
        String subject = subjectOf(session);
        if (subject == null) {
            return Optional.of(Principal.ANONYMOUS);
        }
        return rules.map(subject).map(name -> new Principal("User", name));
    }

    /** The client certificate's distinguished name (RFC 2253), or null when it presented none. */
    private static String subjectOf(SSLSession session) {
        try {
            Certificate[] chain = session.getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate certificate
                    ? certificate.getSubjectX500Principal().getName() : null;
        } catch (SSLPeerUnverifiedException none) {
            return null;
        }
    }
}
