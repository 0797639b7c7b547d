package dev.spool.broker.api;

import dev.spool.protocol.types.Message;
import java.util.concurrent.CompletableFuture;

/**
 * Handles the requests of one API family. Called on a network thread: an implementation answers at
 * once or parks the request and completes the future later, and never blocks. Implementations are
 * thread-safe.
 */
public interface ApiHandler {

    /** Answers one request; the future completes with the response body for the same API and version. */
    CompletableFuture<Message> handle(RequestContext context, Message request);
}
