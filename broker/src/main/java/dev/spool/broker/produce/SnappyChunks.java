package dev.spool.broker.produce;

import java.io.IOException;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyCodec;

/**
 * Checks a snappy-compressed records section before it is inflated. snappy-java's stream allocates an
 * array of the length a chunk claims to inflate to, so a few damaged bytes can ask for gigabytes; here
 * every chunk of xerial's framing (a 16-byte header, then int32 length and raw snappy block) is
 * validated by snappy itself, which walks the block without writing it out, so the claimed length is
 * checked against the real one before anything is allocated. A section without the header is one raw
 * block, as snappy-java reads it. Stateless; thread-safe.
 */
final class SnappyChunks {

    private static final int CHUNK_LENGTH_BYTES = 4;

    private SnappyChunks() {
    }

    /** What is wrong with the compressed section {@code bytes}, or null when every chunk is valid. */
    static String invalidChunk(byte[] bytes) throws IOException {
        if (!SnappyCodec.hasMagicHeaderPrefix(bytes)) {
            return Snappy.isValidCompressedBuffer(bytes, 0, bytes.length) ? null : "not a valid snappy block";
        }
        int position = SnappyCodec.headerSize();
        while (position < bytes.length) {
            if (bytes.length - position < CHUNK_LENGTH_BYTES) {
                return "a chunk length cut off at byte " + position;
            }
            int length = (bytes[position] & 0xFF) << 24 | (bytes[position + 1] & 0xFF) << 16
                    | (bytes[position + 2] & 0xFF) << 8 | bytes[position + 3] & 0xFF;
            position += CHUNK_LENGTH_BYTES;
            if (length < 0 || length > bytes.length - position) {
                return "a chunk of " + length + " bytes at byte " + position + " of " + bytes.length;
            }
            if (!Snappy.isValidCompressedBuffer(bytes, position, length)) {
                return "the chunk of " + length + " bytes at byte " + position + " is not a valid snappy block";
            }
            position += length;
        }
        return null;
    }

    /**
     * The inflated length of a section whose chunks {@link #invalidChunk} found valid: the sum of what
     * each chunk's block header says (snappy's validation checked each against its block).
     */
    static long inflatedBytes(byte[] bytes) throws IOException {
        if (!SnappyCodec.hasMagicHeaderPrefix(bytes)) {
            return Snappy.uncompressedLength(bytes, 0, bytes.length);
        }
        long total = 0;
        int position = SnappyCodec.headerSize();
        while (position < bytes.length) {
            int length = (bytes[position] & 0xFF) << 24 | (bytes[position + 1] & 0xFF) << 16
                    | (bytes[position + 2] & 0xFF) << 8 | bytes[position + 3] & 0xFF;
            position += CHUNK_LENGTH_BYTES;
            total += Snappy.uncompressedLength(bytes, position, length);
            position += length;
        }
        return total;
    }
}
