package dev.spool.protocol.types;

/**
 * A message body could not be read: truncated, malformed, or a length out of bounds. The broker
 * answers it with INVALID_REQUEST or by closing the connection.
 */
public final class MessageParseException extends RuntimeException {

    public MessageParseException(String message) {
        super(message);
    }
}
