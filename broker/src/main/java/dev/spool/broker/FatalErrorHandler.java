package dev.spool.broker;

import org.slf4j.LoggerFactory;

/**
 * Called once, on a thread of its own, when the broker cannot go on: every log dir has failed, or the one
 * holding the metadata log (Kafka stops the broker in both cases, KIP-112 and KIP-858), or the node can no longer
 * take part in its cluster. The server command exits the process (its shutdown hook closes what is left); an
 * embedded broker closes itself.
 */
@FunctionalInterface
public interface FatalErrorHandler {
    void onFatalError(String reason);

    /**
     * Logs {@code reason} and tells this handler on a thread of its own: the thread that fails is often one the
     * broker's close waits for.
     */
    default void stopOnOwnThread(String reason) {
        LoggerFactory.getLogger(FatalErrorHandler.class).error("Shutting the node down: {}", reason);
        new Thread(() -> onFatalError(reason), "spool-fatal-shutdown").start();
    }
}
