package dev.spool.broker.network;

import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/**
 * Stateless: tells a connection the client closed (reset by peer, broken pipe) from a failure an operator
 * must look at. A consumer that closes with a fetch in flight, or a client killed mid-request, resets its
 * connection; that is the client's business, so Kafka logs it at DEBUG, and so does Spool.
 */
final class PeerDisconnect {

    private PeerDisconnect() {
    }

    /** Whether {@code cause}, raised on a connection, only says that the client went away. */
    static boolean isPeerGone(Throwable cause) {
        if (cause instanceof ClosedChannelException) {
            return true;
        }
        if (cause instanceof Errors.NativeIoException nativeIo) {
            // The epoll transport: the errno, whatever language the system's messages are in.
            int errno = nativeIo.expectedErr();
            return errno == Errors.ERRNO_ECONNRESET_NEGATIVE || errno == Errors.ERRNO_EPIPE_NEGATIVE;
        }
        // The NIO transport (no epoll): the JDK says "Connection reset" or "Connection reset by peer", "Broken pipe".
        String message = cause instanceof IOException ? cause.getMessage() : null;
        return message != null && (message.contains("Connection reset") || message.contains("Broken pipe"));
    }
}
