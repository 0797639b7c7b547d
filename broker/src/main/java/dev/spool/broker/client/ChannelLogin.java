package dev.spool.broker.client;

import dev.spool.broker.config.SaslLogin;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.SaslAuthenticateRequestData;
import dev.spool.protocol.message.SaslAuthenticateResponseData;
import dev.spool.protocol.message.SaslHandshakeRequestData;
import dev.spool.protocol.message.SaslHandshakeResponseData;
import dev.spool.protocol.types.Message;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes a new connection to a node usable: its TLS handshake, then its SASL login (SaslHandshake v1, then
 * SaslAuthenticate v2 until the mechanism completes, KIP-152), before any other request goes out on it. A session
 * the node limits (KIP-368's session lifetime) ends a little before it expires by retiring the connection: the next
 * request goes out on a new one, which logs in again, and the old one closes once its last response came.
 */
final class ChannelLogin {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelLogin.class);
    private static final short HANDSHAKE_VERSION = 1;
    private static final short AUTHENTICATE_VERSION = 2;
    /** Set on a channel whose SASL session ends soon: no new request is to be sent on it. */
    static final AttributeKey<Boolean> RETIRING = AttributeKey.valueOf("spool.node.retiring");
    /** The event that tells the channel's handler to close once no request is in flight. */
    static final Object RETIRE = new Object() {
        @Override
        public String toString() {
            return "RETIRE";
        }
    };

    /** Sends a request on the given channel, as any other request is sent: its future completes with the response. */
    interface Sender {
        CompletableFuture<Message> send(Channel channel, ApiKey api, short version, Message request);
    }

    private ChannelLogin() {
    }

    /**
     * A future done once {@code connect}'s channel is connected, through its TLS handshake and logged in, or failed
     * with why not (the channel then closed).
     */
    static ChannelFuture of(ChannelFuture connect, ChannelSecurity security, NodeAddress peer, Sender sender) {
        if (security.isPlaintext()) {
            return connect;
        }
        Channel channel = connect.channel();
        ChannelPromise ready = channel.newPromise();
        connect.addListener((ChannelFutureListener) connected -> {
            if (!connected.isSuccess()) {
                ready.setFailure(connected.cause());
                return;
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls == null) {
                login(channel, security.sasl(), peer, sender, ready);
                return;
            }
            tls.handshakeFuture().addListener(handshake -> {
                if (!handshake.isSuccess()) {
                    fail(channel, ready, new IOException("TLS handshake with node " + peer + " failed: "
                            + handshake.cause().getMessage(), handshake.cause()));
                } else if (security.sasl() == null) {
                    ready.setSuccess();
                } else {
                    login(channel, security.sasl(), peer, sender, ready);
                }
            });
        });
        return ready;
    }

    private static void login(Channel channel, SaslLogin login, NodeAddress peer, Sender sender,
                              ChannelPromise ready) {
        SaslClientMechanism mechanism = SaslClientMechanism.of(login);
        sender.send(channel, ApiKey.SASL_HANDSHAKE, HANDSHAKE_VERSION,
                        new SaslHandshakeRequestData().setMechanism(login.mechanism()))
                .thenCompose(response -> {
                    SaslHandshakeResponseData handshake = (SaslHandshakeResponseData) response;
                    if (handshake.errorCode() != Errors.NONE.code()) {
                        throw new CompletionException(new IOException("Node " + peer + " does not take SASL mechanism "
                                + login.mechanism() + " (it takes " + handshake.mechanisms() + ")"));
                    }
                    return authenticate(channel, mechanism, mechanism.first(), login, peer, sender);
                })
                .whenComplete((lifetimeMs, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                        fail(channel, ready, cause instanceof IOException ? cause : new IOException("SASL login to "
                                + "node " + peer + " failed: " + cause.getMessage(), cause));
                        return;
                    }
                    if (lifetimeMs > 0) {
                        // Before the node would close it, with jitter so that a node's connections do not all go at once.
                        long closeInMs = (long) (lifetimeMs * ThreadLocalRandom.current().nextDouble(0.8, 0.9));
                        channel.eventLoop().schedule(() -> {
                            LOG.debug("Retiring connection to {}: its SASL session of {} ms ends soon", peer,
                                    lifetimeMs);
                            channel.attr(RETIRING).set(true);
                            channel.pipeline().fireUserEventTriggered(RETIRE);
                        }, closeInMs, TimeUnit.MILLISECONDS);
                    }
                    ready.setSuccess();
                });
    }

    /** Sends {@code message} and what the mechanism answers each challenge with; completes with the session lifetime. */
    private static CompletableFuture<Long> authenticate(Channel channel, SaslClientMechanism mechanism, byte[] message,
                                                        SaslLogin login, NodeAddress peer, Sender sender) {
        return sender.send(channel, ApiKey.SASL_AUTHENTICATE, AUTHENTICATE_VERSION,
                        new SaslAuthenticateRequestData().setAuthBytes(message))
                .thenCompose(response -> {
                    SaslAuthenticateResponseData answer = (SaslAuthenticateResponseData) response;
                    if (answer.errorCode() != Errors.NONE.code()) {
                        throw new CompletionException(new IOException("Node " + peer + " refused the SASL "
                                + login.mechanism() + " login of " + login.username() + ": " + answer.errorMessage()));
                    }
                    byte[] next;
                    try {
                        next = mechanism.next(answer.authBytes());
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                    if (next == null) {
                        if (!mechanism.isComplete()) {
                            throw new CompletionException(new IOException("SASL " + login.mechanism()
                                    + " login to node " + peer + " ended early"));
                        }
                        return CompletableFuture.completedFuture(answer.sessionLifetimeMs());
                    }
                    return authenticate(channel, mechanism, next, login, peer, sender);
                });
    }

    private static void fail(Channel channel, ChannelPromise ready, Throwable cause) {
        LOG.warn("Cannot connect to another node: {}", cause.getMessage());
        ready.tryFailure(cause);
        channel.close();
    }
}
