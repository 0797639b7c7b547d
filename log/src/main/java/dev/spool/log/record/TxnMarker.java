package dev.spool.log.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Immutable: the end of a transaction as written in a partition, a control batch (transactional and
 * control attributes set, the producer's id and epoch, no sequence) holding one control record:
 *
 * <pre>
 *  key:   version int16 = 0 | type int16 (0 = ABORT, 1 = COMMIT)
 *  value: version int16 = 0 | coordinator epoch int32
 * </pre>
 *
 * The one place this layout is written down; Kafka's consumers skip such batches and its dump tool prints them.
 *
 * @param commit           COMMIT (else ABORT)
 * @param coordinatorEpoch the epoch of the transaction coordinator that wrote it (its partition's leader epoch)
 */
public record TxnMarker(boolean commit, int coordinatorEpoch) {

    private static final short VERSION = 0;
    private static final short ABORT = 0;
    private static final short COMMIT = 1;
    private static final int KEY_BYTES = 4;
    private static final int VALUE_BYTES = 6;

    /** The marker a control batch carries. */
    public static TxnMarker of(RecordBatch batch) {
        if (!batch.isControl()) {
            throw new IllegalArgumentException("Not a control batch: " + batch);
        }
        List<Record> records = batch.records();
        if (records.isEmpty()) {
            throw new CorruptRecordException("Control batch at offset " + batch.baseOffset() + " has no record");
        }
        Record record = records.get(0);
        ByteBuffer key = record.key();
        if (key == null || key.remaining() < KEY_BYTES) {
            throw new CorruptRecordException("Control record at offset " + record.offset() + " has a key of "
                    + (key == null ? "null" : key.remaining() + " bytes") + ", expected " + KEY_BYTES);
        }
        short type = key.getShort(key.position() + 2);
        if (type != ABORT && type != COMMIT) {
            throw new CorruptRecordException("Control record at offset " + record.offset() + " has type " + type
                    + ", not a transaction marker");
        }
        ByteBuffer value = record.value();
        int coordinatorEpoch = value != null && value.remaining() >= VALUE_BYTES
                ? value.getInt(value.position() + 2) : -1;
        return new TxnMarker(type == COMMIT, coordinatorEpoch);
    }

    /** Whether {@code batch} is a control batch holding a transaction marker (the only control records written). */
    public static boolean isMarker(RecordBatch batch) {
        return batch.isControl() && batch.isTransactional();
    }

    /** The control batch of this marker for producer {@code producerId} at {@code epoch}, at base offset 0. */
    public ByteBuffer toBatch(long producerId, short epoch, long timestampMs) {
        byte[] key = ByteBuffer.allocate(KEY_BYTES).putShort(VERSION).putShort(commit ? COMMIT : ABORT).array();
        byte[] value = ByteBuffer.allocate(VALUE_BYTES).putShort(VERSION).putInt(coordinatorEpoch).array();
        return new RecordBatchBuilder(CompressionType.NONE)
                .producer(producerId, epoch, RecordBatchLayout.NO_SEQUENCE)
                .transactional(true)
                .control(true)
                .append(timestampMs, key, value)
                .build();
    }
}
