package dev.spool.log.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Stateless: decodes the uncompressed records section of a batch (record layout in {@link Record}). */
final class RecordDecoder {
    private RecordDecoder() {
    }

    static List<Record> decodeAll(ByteBuffer records, RecordBatch batch) {
        int count = batch.recordCount();
        long baseOffset = batch.baseOffset();
        long baseTimestamp = batch.baseTimestamp();
        boolean logAppendTime = batch.isLogAppendTime();
        long maxTimestamp = batch.maxTimestamp();
        List<Record> out = new ArrayList<>(Math.max(0, Math.min(count, 1 << 16)));
        try {
            for (int i = 0; i < count; i++) {
                out.add(decodeOne(records, baseOffset, baseTimestamp, logAppendTime ? maxTimestamp : -1L, logAppendTime));
            }
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptRecordException("Record " + out.size() + " of " + count + " in batch at base offset "
                    + baseOffset + " runs past the end of the records section", e);
        }
        if (records.hasRemaining()) {
            throw new CorruptRecordException(records.remaining() + " bytes left after " + count
                    + " records in batch at base offset " + baseOffset);
        }
        return out;
    }

    private static Record decodeOne(ByteBuffer in, long baseOffset, long baseTimestamp, long appendTime,
                                    boolean logAppendTime) {
        int length = Varints.readVarint(in);
        int bodyStart = in.position();
        if (length < 0 || length > in.remaining()) {
            throw new CorruptRecordException("Record length " + length + " with " + in.remaining()
                    + " bytes remaining in batch at base offset " + baseOffset);
        }
        in.get(); // record attributes: unused in v2
        long timestampDelta = Varints.readVarlong(in);
        int offsetDelta = Varints.readVarint(in);
        ByteBuffer key = readBytes(in);
        ByteBuffer value = readBytes(in);
        int headerCount = Varints.readVarint(in);
        if (headerCount < 0) {
            throw new CorruptRecordException("Negative header count " + headerCount + " at offset delta "
                    + offsetDelta + " in batch at base offset " + baseOffset);
        }
        List<Header> headers = headerCount == 0 ? Collections.emptyList() : new ArrayList<>(headerCount);
        for (int h = 0; h < headerCount; h++) {
            ByteBuffer name = readBytes(in);
            if (name == null) {
                throw new CorruptRecordException("Null header key at offset delta " + offsetDelta
                        + " in batch at base offset " + baseOffset);
            }
            headers.add(new Header(StandardCharsets.UTF_8.decode(name).toString(), readBytes(in)));
        }
        if (in.position() - bodyStart != length) {
            throw new CorruptRecordException("Record at offset delta " + offsetDelta + " declares " + length
                    + " bytes but uses " + (in.position() - bodyStart) + " in batch at base offset " + baseOffset);
        }
        long timestamp = logAppendTime ? appendTime : baseTimestamp + timestampDelta;
        return new Record(baseOffset + offsetDelta, timestamp, key, value, headers);
    }

    private static ByteBuffer readBytes(ByteBuffer in) {
        int size = Varints.readVarint(in);
        if (size < 0) {
            return null;
        }
        ByteBuffer slice = in.slice();
        slice.limit(size);
        in.position(in.position() + size);
        return slice.asReadOnlyBuffer();
    }
}
