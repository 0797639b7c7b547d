package dev.spool.broker.network;

import dev.spool.broker.api.RequestContext;
import dev.spool.protocol.types.Message;
import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * Implementations are thread-safe (many event loops call one instance): told of connections and of every
 * answered request, for metrics. Called on the connection's event loop, so an implementation must be cheap,
 * never block and allocate nothing per call it can avoid.
 */
public interface RequestObserver {

    /** Observes nothing. */
    RequestObserver NONE = new RequestObserver() {
        @Override
        public void onConnectionOpened() {
        }

        @Override
        public void onConnectionClosed(SocketAddress peer) {
        }

        @Override
        public void onAnswered(RequestContext context, Message request, Message response, long latencyNanos) {
        }
    };

    void onConnectionOpened();

    /** The connection from {@code peer} (null if unknown) closed. */
    void onConnectionClosed(SocketAddress peer);

    /**
     * A request was answered ({@code response} null for acks=0 Produce) {@code latencyNanos} after its
     * frame arrived. The request's records still point into its frame, which is released right after.
     */
    void onAnswered(RequestContext context, Message request, Message response, long latencyNanos);

    /** This observer, with {@code onClosed} told of each closed connection too (a controller's broker sessions). */
    default RequestObserver alsoOnConnectionClosed(Consumer<SocketAddress> onClosed) {
        RequestObserver observer = this;
        return new RequestObserver() {
            @Override
            public void onConnectionOpened() {
                observer.onConnectionOpened();
            }

            @Override
            public void onConnectionClosed(SocketAddress peer) {
                observer.onConnectionClosed(peer);
                onClosed.accept(peer);
            }

            @Override
            public void onAnswered(RequestContext context, Message request, Message response, long latencyNanos) {
                observer.onAnswered(context, request, response, latencyNanos);
            }
        };
    }
}
