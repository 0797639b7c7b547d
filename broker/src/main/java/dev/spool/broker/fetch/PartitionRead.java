package dev.spool.broker.fetch;

import dev.spool.broker.partition.Partition;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.protocol.Errors;
import dev.spool.protocol.types.Records;

/**
 * Immutable. What a fetch read from one partition. Offsets are -1 with an error, as Kafka answers.
 *
 * @param state            what was asked
 * @param partition        the hosted partition, or null when it is unknown
 * @param error            NONE, or why nothing was read
 * @param highWatermark    the high watermark when read
 * @param lastStableOffset the last stable offset (the high watermark until transactions exist)
 * @param logStartOffset   the log start offset when read
 * @param records          the batches read (a file region, or empty)
 * @param readBound        the high watermark with its position, which bounded the read (null with an error):
 *                         a parked fetch measures the bytes appended since by it
 */
record PartitionRead(FetchPartitionState state, Partition partition, Errors error, long highWatermark,
                     long lastStableOffset, long logStartOffset, Records records, LogOffsetMetadata readBound) {

    static PartitionRead failed(FetchPartitionState state, Partition partition, Errors error) {
        return new PartitionRead(state, partition, error, -1L, -1L, -1L, FetchReader.NO_RECORDS, null);
    }
}
