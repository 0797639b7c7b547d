package dev.spool.log.record;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** Not thread-safe: an InputStream over the remaining bytes of a ByteBuffer, advancing its position. */
public final class ByteBufferInputStream extends InputStream {
    private final ByteBuffer buffer;

    public ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int count = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, count);
        return count;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
