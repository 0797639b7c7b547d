package dev.spool.broker;

/**
 * Called once, on a thread of its own, when the broker cannot go on: every log dir has failed, or the one
 * holding the metadata log (Kafka stops the broker in both cases, KIP-112 and KIP-858). The server
 * command exits the process (its shutdown hook closes what is left); an embedded broker closes itself.
 */
@FunctionalInterface
public interface FatalErrorHandler {
    void onFatalError(String reason);
}
