package dev.spool.broker.api;

/**
 * Immutable: completes a request's future exceptionally to make the dispatcher close the connection
 * where the protocol has no response to carry an error: an acks=0 produce that failed, which Kafka
 * answers by closing so that the producer refreshes its metadata. No stack trace, and the dispatcher
 * logs it in one INFO line (as Kafka does): it is an expected outcome, not a bug.
 */
public final class ConnectionCloseRequest extends RuntimeException {

    public ConnectionCloseRequest(String reason) {
        super(reason, null, false, false);
    }
}
