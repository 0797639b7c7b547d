package dev.spool.broker.produce;

import dev.spool.log.record.Varints;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Not thread-safe: owned by one {@link ProduceBatchValidator}. Reads the records section of one batch
 * front to back, either in place (an uncompressed batch: a view of the request's bytes) or inflating
 * a compressed one through a fixed window of {@link #WINDOW_BYTES}, so that walking a batch never
 * holds more than the window of its inflated records however much they claim or hold.
 *
 * <p>An inflating reader stops at {@code maxInflatedBytes}: it never asks the codec for more, and
 * reports {@link #exceededLimit()}; reads past what it holds throw {@link BufferUnderflowException}
 * (an end that comes too soon), as reads past the end of an in-place section do.
 *
 * <p>Design note: one class for both cases keeps the record walk monomorphic; in place,
 * {@link #ensure(int)} is a single branch. Varints are decoded from the window by {@link Varints},
 * after topping it up to the longest varint.
 */
final class RecordSectionReader {

    /** Inflated bytes held at once: large enough that a refill costs one codec call per few records. */
    static final int WINDOW_BYTES = 16 * 1024;
    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private ByteBuffer inflateWindow;
    private ByteBuffer window;
    private InputStream in;
    /** Section position of window index {@link #windowBase}. */
    private long windowStartPosition;
    private int windowBase;
    private long inflatedBytes;
    private long maxInflatedBytes;
    private boolean endOfStream;
    private boolean exceededLimit;

    /** Reads the section [start, end) of {@code buffer} in place. */
    void wrap(ByteBuffer buffer, int start, int end) {
        window = buffer.duplicate();
        window.limit(end).position(start);
        windowBase = start;
        windowStartPosition = 0;
        in = null;
        endOfStream = true;
        exceededLimit = false;
        maxInflatedBytes = end - start;
    }

    /** Reads what {@code inflating} yields, up to {@code maxInflatedBytes}. The caller closes the stream. */
    void wrap(InputStream inflating, long maxInflatedBytes) {
        if (inflateWindow == null) {
            inflateWindow = ByteBuffer.allocate(WINDOW_BYTES);
        }
        window = inflateWindow;
        window.clear().limit(0);
        windowBase = 0;
        windowStartPosition = 0;
        in = inflating;
        inflatedBytes = 0;
        this.maxInflatedBytes = maxInflatedBytes;
        endOfStream = false;
        exceededLimit = false;
    }

    /** Bytes of the section read so far. */
    long position() {
        return windowStartPosition + window.position() - windowBase;
    }

    /** The position the section cannot go beyond: its length in place, the inflation limit otherwise. */
    long limit() {
        return maxInflatedBytes;
    }

    /** True when reading a compressed section through the window. */
    boolean inflating() {
        return in != null;
    }

    /** True once an inflating reader refused to inflate past its limit. */
    boolean exceededLimit() {
        return exceededLimit;
    }

    byte readByte() throws IOException {
        ensure(1);
        return window.get();
    }

    int readVarint() throws IOException {
        ensure(MAX_VARINT_BYTES);
        return Varints.readVarint(window);
    }

    long readVarlong() throws IOException {
        ensure(MAX_VARLONG_BYTES);
        return Varints.readVarlong(window);
    }

    /** Skips {@code bytes} bytes (>= 0); throws {@link BufferUnderflowException} if the section ends first. */
    void skip(int bytes) throws IOException {
        int left = bytes;
        while (left > window.remaining()) {
            left -= window.remaining();
            window.position(window.limit());
            ensure(1);
            if (!window.hasRemaining()) {
                throw new BufferUnderflowException();
            }
        }
        window.position(window.position() + left);
    }

    /** True when no byte follows (for a stream: it has ended, within the limit). */
    boolean atEnd() throws IOException {
        ensure(1);
        return !window.hasRemaining();
    }

    /**
     * Tops the window up to at least {@code bytes} unread bytes, unless the stream ends or reaches the
     * limit first (then it holds what there is).
     */
    private void ensure(int bytes) throws IOException {
        if (window.remaining() >= bytes || endOfStream) {
            return;
        }
        windowStartPosition += window.position() - windowBase;
        window.compact();
        windowBase = 0;
        byte[] array = window.array();
        while (window.position() < bytes && !endOfStream) {
            int room = (int) Math.min(window.remaining(), maxInflatedBytes + 1 - inflatedBytes);
            if (room <= 0) {
                exceededLimit = true;
                endOfStream = true;
                break;
            }
            int read = in.read(array, window.position(), room);
            if (read < 0) {
                endOfStream = true;
            } else {
                window.position(window.position() + read);
                inflatedBytes += read;
            }
        }
        if (inflatedBytes > maxInflatedBytes) {
            // The byte past the limit proves the section is longer; it is never handed out.
            exceededLimit = true;
            endOfStream = true;
            window.position(window.position() - 1);
            inflatedBytes--;
        }
        window.flip();
    }
}
