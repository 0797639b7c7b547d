package dev.spool.broker.network;

import dev.spool.protocol.types.ProtocolWriter;
import dev.spool.protocol.types.Records;

/**
 * Not thread-safe. A writer that writes nothing and counts the bytes of the {@link FileRecords} a message
 * holds, so that the buffer for the rest of its frame is allocated at its exact size.
 */
final class FileRecordsCounter implements ProtocolWriter {

    private long fileBytes;

    long fileBytes() {
        return fileBytes;
    }

    @Override
    public void writeInt8(byte value) {
    }

    @Override
    public void writeInt16(short value) {
    }

    @Override
    public void writeInt32(int value) {
    }

    @Override
    public void writeInt64(long value) {
    }

    @Override
    public void writeByteArray(byte[] bytes, int offset, int length) {
    }

    @Override
    public void writeRecordBytes(Records records) {
        if (records instanceof FileRecords) {
            fileBytes += records.sizeInBytes();
        }
    }
}
