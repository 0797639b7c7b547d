package dev.spool.protocol.types;

/**
 * A response with a {@code ThrottleTimeMs} field: how long the broker holds the client back for going over a quota.
 * Since KIP-219 the broker answers at once, tells the time here and reads nothing more from the connection for that
 * long; the client waits the same time before sending again. Generated response classes with the field implement
 * it, so the network layer mutes a connection by what the handler answered, whatever the API. Not thread-safe.
 */
public interface ThrottledResponse extends Message {

    int throttleTimeMs();

    ThrottledResponse setThrottleTimeMs(int value);
}
