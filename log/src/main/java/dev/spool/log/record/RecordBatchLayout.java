package dev.spool.log.record;

/**
 * Stateless: the offsets and sizes of the record batch v2 header, the one place this layout is written down.
 *
 * <pre>
 *  0                   8           12                    16    17          21           23
 *  +-------------------+-----------+---------------------+-----+-----------+------------+
 *  | baseOffset int64  | batchLen  | partitionLeaderEpoch|magic| crc uint32| attributes |
 *  |                   | int32     | int32               |int8 | CRC-32C   | int16      |
 *  +-------------------+-----------+---------------------+-----+-----------+------------+
 *  23               27                 35                 43               51      53
 *  +----------------+------------------+------------------+----------------+-------+
 *  | lastOffsetDelta| baseTimestamp    | maxTimestamp     | producerId     | prod. |
 *  | int32          | int64            | int64            | int64          | epoch |
 *  +----------------+------------------+------------------+----------------+-------+
 *  53               57            61
 *  +----------------+-------------+---------------------------------------------------+
 *  | baseSequence   | recordCount | records (possibly compressed)                     |
 *  | int32          | int32       | up to 12 + batchLen                               |
 *  +----------------+-------------+---------------------------------------------------+
 * </pre>
 *
 * <p>batchLen counts the bytes after the batchLen field, so a batch occupies {@code 12 + batchLen}
 * bytes. The CRC covers bytes [21, end): base offset, length and leader epoch may be rewritten
 * without recomputing it.
 *
 * <p>Attributes: bits 0-2 compression (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd), bit 3 timestamp type
 * (1 = LogAppendTime), bit 4 transactional, bit 5 control, bit 6 delete horizon set.
 */
public final class RecordBatchLayout {
    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int BATCH_LENGTH_OFFSET = 8;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 21;
    public static final int LAST_OFFSET_DELTA_OFFSET = 23;
    public static final int BASE_TIMESTAMP_OFFSET = 27;
    public static final int MAX_TIMESTAMP_OFFSET = 35;
    public static final int PRODUCER_ID_OFFSET = 43;
    public static final int PRODUCER_EPOCH_OFFSET = 51;
    public static final int BASE_SEQUENCE_OFFSET = 53;
    public static final int RECORD_COUNT_OFFSET = 57;
    public static final int RECORDS_OFFSET = 61;

    /** Bytes of the header, i.e. of a batch with no records. */
    public static final int HEADER_SIZE_BYTES = RECORDS_OFFSET;
    /** Bytes before and including the batch length field: what must be read to learn a batch's size. */
    public static final int LOG_OVERHEAD_BYTES = 12;
    /** Where the CRC-covered region starts. */
    public static final int CRC_START_OFFSET = ATTRIBUTES_OFFSET;

    public static final byte MAGIC_V2 = 2;

    public static final int COMPRESSION_CODEC_MASK = 0x07;
    public static final int TIMESTAMP_TYPE_MASK = 0x08;
    public static final int TRANSACTIONAL_FLAG_MASK = 0x10;
    public static final int CONTROL_FLAG_MASK = 0x20;
    public static final int DELETE_HORIZON_FLAG_MASK = 0x40;

    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final int NO_PARTITION_LEADER_EPOCH = -1;
    public static final long NO_TIMESTAMP = -1L;

    private RecordBatchLayout() {
    }
}
