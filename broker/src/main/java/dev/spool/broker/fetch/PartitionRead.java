package dev.spool.broker.fetch;

import dev.spool.broker.partition.Partition;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.log.index.AbortedTxn;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.types.Records;
import java.util.List;

/**
 * Immutable. What a fetch read from one partition. Offsets are -1 with an error, as Kafka answers.
 *
 * @param state            what was asked
 * @param partition        the hosted partition, or null when it is unknown
 * @param error            NONE, or why nothing was read
 * @param highWatermark    the high watermark when read
 * @param lastStableOffset the last stable offset (-1 while not known: the partition's producer state is loading)
 * @param logStartOffset   the log start offset when read
 * @param records          the batches read (a file region, or empty)
 * @param readBound        the high watermark with its position (a follower's read: the log end), which bounded
 *                         the read (null with an error): a parked fetch measures the bytes appended since by it
 * @param divergingEpoch   for a follower whose log parted from the leader's: the largest epoch both have and where
 *                         it ends in the leader's log (the follower truncates there); null otherwise
 * @param abortedTransactions for a read_committed read, the aborted transactions overlapping the records read;
 *                         null for other reads
 */
record PartitionRead(FetchPartitionState state, Partition partition, Errors error, long highWatermark,
                     long lastStableOffset, long logStartOffset, Records records, LogOffsetMetadata readBound,
                     FetchResponseData.EpochEndOffset divergingEpoch, List<AbortedTxn> abortedTransactions) {

    PartitionRead(FetchPartitionState state, Partition partition, Errors error, long highWatermark,
                  long lastStableOffset, long logStartOffset, Records records, LogOffsetMetadata readBound) {
        this(state, partition, error, highWatermark, lastStableOffset, logStartOffset, records, readBound, null, null);
    }

    static PartitionRead failed(FetchPartitionState state, Partition partition, Errors error) {
        return new PartitionRead(state, partition, error, -1L, -1L, -1L, FetchReader.NO_RECORDS, null);
    }
}
