package dev.spool.broker.network;

import dev.spool.protocol.types.Records;
import io.netty.channel.FileRegion;
import java.nio.channels.FileChannel;

/**
 * Immutable. Records that stay in a file: a region of a segment's {@code .log} file, sent to the socket with
 * sendfile when the response is written instead of being copied through the heap. The channel belongs to the
 * segment, which keeps it open for {@code file.delete.delay.ms} after deleting it, so a response in flight
 * is never cut off; this class never closes it.
 */
public final class FileRecords implements Records {

    private final FileChannel channel;
    private final long position;
    private final int sizeInBytes;

    public FileRecords(FileChannel channel, long position, int sizeInBytes) {
        if (channel == null || position < 0 || sizeInBytes < 0) {
            throw new IllegalArgumentException("bad file region: " + channel + " at " + position + ", "
                    + sizeInBytes + " bytes");
        }
        this.channel = channel;
        this.position = position;
        this.sizeInBytes = sizeInBytes;
    }

    public FileChannel channel() {
        return channel;
    }

    public long position() {
        return position;
    }

    @Override
    public int sizeInBytes() {
        return sizeInBytes;
    }

    /** A new region over these bytes for one write, owned by whoever writes it (reference count 1). */
    FileRegion newRegion() {
        return new SegmentFileRegion(channel, position, sizeInBytes);
    }

    @Override
    public String toString() {
        return "FileRecords(" + sizeInBytes + " bytes at " + position + ")";
    }
}
