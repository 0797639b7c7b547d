package dev.spool.broker.client;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.types.Message;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One request on its way to a node, and the future its response completes. Made on the sending thread with its
 * body already serialized: a {@link Message} is not thread-safe, so the caller may reuse it as soon as
 * {@link NodeConnection#send} returns. Everything else happens on the event loop of the connection it goes out
 * on: its correlation id and timeout are set there, and it is completed or failed there (the first outcome
 * wins). The caller may cancel the future from any thread; the request then still goes on the wire and its
 * response is read and dropped.
 */
final class PendingRequest {

    private static final int NOT_SENT = -1;

    final ApiKey api;
    final short version;
    /** The serialized body, read once when the request frame is written. */
    final ByteBuffer body;
    final CompletableFuture<Message> response = new CompletableFuture<>();

    private int correlationId = NOT_SENT;
    private ScheduledFuture<?> timeout;

    PendingRequest(ApiKey api, short version, ByteBuffer body) {
        this.api = api;
        this.version = version;
        this.body = body;
    }

    /** On the event loop: the request went out with this correlation id, and fails by itself at {@code timeout}. */
    void onSent(int correlationId, ScheduledFuture<?> timeout) {
        this.correlationId = correlationId;
        this.timeout = timeout;
    }

    int correlationId() {
        return correlationId;
    }

    void complete(Message body) {
        cancelTimeout();
        response.complete(body);
    }

    void fail(Throwable cause) {
        cancelTimeout();
        response.completeExceptionally(cause);
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    /** {@code Metadata v12 (correlation id 7)}, for exception messages. */
    String describe() {
        String name = api.displayName + " v" + version;
        return correlationId == NOT_SENT ? name : name + " (correlation id " + correlationId + ")";
    }
}
