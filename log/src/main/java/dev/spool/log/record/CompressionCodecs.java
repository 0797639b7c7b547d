package dev.spool.log.record;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHashFactory;
import org.xerial.snappy.SnappyInputStream;
import org.xerial.snappy.SnappyOutputStream;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Stateless: the streams that compress and inflate the records section of a v2 batch, byte-compatible
 * with what Kafka's clients write and read.
 *
 * <ul>
 *   <li>gzip: RFC 1952 streams (JDK).</li>
 *   <li>snappy: xerial's framed stream ({@code SnappyOutputStream}: an 8-byte magic "\x82SNAPPY\0",
 *       two int32 versions, then blocks each prefixed by its int32 compressed length), which is what
 *       Kafka's clients have always used.</li>
 *   <li>lz4: the standard LZ4 frame format (magic 0x184D2204), independent 64 KiB blocks, no block or
 *       content checksums, header checksum over the descriptor bytes only (KIP-57 fixed Kafka's early
 *       checksum over the magic too; v2 batches always use the correct one); the fast compressor at the
 *       default level 9, the high-compression one at the others.</li>
 *   <li>zstd: a standard zstd frame (zstd-jni), level 3 by default as Kafka.</li>
 * </ul>
 */
public final class CompressionCodecs {
    private static final int GZIP_BUFFER_BYTES = 8 * 1024;
    /** Kafka's default gzip level (compression.gzip.level): zlib's own default, 6. */
    public static final int GZIP_DEFAULT_LEVEL = -1;
    /** Kafka's default lz4 level (compression.lz4.level). */
    public static final int LZ4_DEFAULT_LEVEL = 9;
    /** Kafka's default zstd level (compression.zstd.level). */
    public static final int ZSTD_DEFAULT_LEVEL = 3;

    private CompressionCodecs() {
    }

    /** Wraps {@code out} so that bytes written to the result are compressed with {@code type}, at its default level. */
    public static OutputStream wrapForOutput(CompressionType type, OutputStream out) throws IOException {
        return wrapForOutput(type, defaultLevel(type), out);
    }

    /** Kafka's default level for {@code type} (meaningful for gzip, lz4 and zstd). */
    public static int defaultLevel(CompressionType type) {
        switch (type) {
            case ZSTD:
                return ZSTD_DEFAULT_LEVEL;
            case LZ4:
                return LZ4_DEFAULT_LEVEL;
            default:
                return GZIP_DEFAULT_LEVEL;
        }
    }

    /**
     * As {@link #wrapForOutput(CompressionType, OutputStream)}, at {@code level} for gzip (-1 or 1-9), lz4
     * (1-17) and zstd; snappy has no levels.
     */
    public static OutputStream wrapForOutput(CompressionType type, int level, OutputStream out) throws IOException {
        switch (type) {
            case NONE:
                return out;
            case GZIP:
                GZIPOutputStream gzip = new GZIPOutputStream(out, GZIP_BUFFER_BYTES) {
                    {
                        def.setLevel(level);
                    }
                };
                return new BufferedOutputStream(gzip, 2 * GZIP_BUFFER_BYTES);
            case SNAPPY:
                return new SnappyOutputStream(out);
            case LZ4:
                return new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, -1L, lz4Compressor(level),
                        XXHashFactory.fastestInstance().hash32(), LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE);
            case ZSTD:
                return new ZstdOutputStreamNoFinalizer(out, level);
            default:
                throw new IllegalArgumentException("No codec for " + type);
        }
    }

    /**
     * As Kafka's clients and broker since KIP-390: the fast compressor at the default level, which is what
     * lz4 meant before levels existed (and ~25x faster than the high-compression one at 9), and lz4-java's
     * high-compression compressor at any other level.
     */
    private static LZ4Compressor lz4Compressor(int level) {
        return level == LZ4_DEFAULT_LEVEL ? LZ4Factory.fastestInstance().fastCompressor()
                : LZ4Factory.fastestInstance().highCompressor(level);
    }

    /** Wraps {@code in} so that reading the result inflates bytes compressed with {@code type}. */
    public static InputStream wrapForInput(CompressionType type, InputStream in) throws IOException {
        switch (type) {
            case NONE:
                return in;
            case GZIP:
                return new BufferedInputStream(new GZIPInputStream(in, GZIP_BUFFER_BYTES), 2 * GZIP_BUFFER_BYTES);
            case SNAPPY:
                return new SnappyInputStream(in);
            case LZ4:
                return new LZ4FrameInputStream(in);
            case ZSTD:
                // The pool recycles the stream's ~128 KiB input buffer instead of allocating it per batch.
                return new ZstdInputStreamNoFinalizer(in, RecyclingBufferPool.INSTANCE);
            default:
                throw new IllegalArgumentException("No codec for " + type);
        }
    }
}
