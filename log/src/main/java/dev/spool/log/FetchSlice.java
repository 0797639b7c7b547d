package dev.spool.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * Immutable: a region of one segment file holding the batches a read returned, to be sent with
 * {@link FileChannel#transferTo} (sendfile) or copied with {@link #readFully()}. The region starts at a
 * batch boundary; like Kafka it may end inside a batch when {@code maxBytes} cut it (clients skip a
 * partial last batch). The channel stays open at least {@code file.delete.delay.ms} after its segment
 * is deleted.
 *
 * @param channel     the segment's .log file, or null for an empty slice
 * @param file        that file's path (for error messages)
 * @param position    first byte in the file
 * @param lengthBytes number of bytes
 * @param fromOffset  the offset that was asked for
 */
public record FetchSlice(FileChannel channel, Path file, long position, int lengthBytes, long fromOffset) {

    public static FetchSlice empty(long fromOffset) {
        return new FetchSlice(null, null, 0, 0, fromOffset);
    }

    public boolean isEmpty() {
        return lengthBytes == 0;
    }

    /** Copies the region into a new heap buffer (tests, tools, replication). */
    public ByteBuffer readFully() throws IOException {
        ByteBuffer out = ByteBuffer.allocate(lengthBytes);
        while (out.hasRemaining()) {
            int read = channel.read(out, position + out.position());
            if (read < 0) {
                throw new EOFException("File " + file + " ended at " + (position + out.position()) + " while reading "
                        + lengthBytes + " bytes from position " + position);
            }
        }
        return out.flip();
    }

    /** Sends the whole region to {@code target} (sendfile where the OS has it); returns bytes sent. */
    public long transferTo(WritableByteChannel target) throws IOException {
        long sent = 0;
        while (sent < lengthBytes) {
            long n = channel.transferTo(position + sent, lengthBytes - sent, target);
            if (n <= 0) {
                break;
            }
            sent += n;
        }
        return sent;
    }
}
