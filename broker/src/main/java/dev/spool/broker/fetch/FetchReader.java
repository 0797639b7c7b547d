package dev.spool.broker.fetch;

import dev.spool.broker.network.FileRecords;
import dev.spool.broker.partition.Partition;
import dev.spool.log.FetchSlice;
import dev.spool.log.LogOffsetMetadata;
import dev.spool.log.OffsetOutOfRangeException;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.Errors;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Records;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe (stateless but for the lookup). Reads the partitions of one fetch, in order, within its byte
 * limits: each partition gets at most its {@code partition_max_bytes} and what is left of the response's
 * {@code max_bytes}, except that the first partition with data returns at least one whole batch even when
 * that batch is larger (KIP-74), so that a consumer never gets stuck behind a large batch. Consumers read up
 * to the high watermark. Nothing is copied: the records are regions of the segment files.
 */
final class FetchReader {

    private static final Logger LOG = LoggerFactory.getLogger(FetchReader.class);

    static final Records NO_RECORDS = new ByteBufferRecords(ByteBuffer.allocate(0));

    /** The result of reading every partition of a fetch. */
    record Result(List<PartitionRead> reads, long recordBytes, boolean anyError) {
    }

    private final PartitionLookup lookup;

    FetchReader(PartitionLookup lookup) {
        this.lookup = lookup;
    }

    Result read(List<FetchPartitionState> partitions, int responseMaxBytes) {
        List<PartitionRead> reads = new ArrayList<>(partitions.size());
        long remainingBytes = Math.max(0, responseMaxBytes);
        boolean minOneBatch = true;
        long recordBytes = 0;
        boolean anyError = false;
        for (FetchPartitionState state : partitions) {
            int maxBytes = (int) Math.min(Math.max(0, state.partitionMaxBytes()), remainingBytes);
            PartitionRead read = readPartition(state, maxBytes, minOneBatch);
            int size = read.records().sizeInBytes();
            if (size > 0) {
                minOneBatch = false;
                remainingBytes = Math.max(0, remainingBytes - size);
                recordBytes += size;
            }
            anyError |= read.error() != Errors.NONE;
            reads.add(read);
        }
        return new Result(reads, recordBytes, anyError);
    }

    private PartitionRead readPartition(FetchPartitionState state, int maxBytes, boolean minOneBatch) {
        FetchPartitionKey key = state.key();
        Partition partition = key.usesTopicId() ? lookup.byId(key.topicId(), key.partition())
                : lookup.byName(key.topic(), key.partition());
        if (partition == null) {
            return PartitionRead.failed(state, null, key.usesTopicId() && !lookup.topicExists(key.topicId())
                    ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        if (partition.isOffline()) {
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
        if (!lookup.leads(partition)) {
            return PartitionRead.failed(state, partition, Errors.NOT_LEADER_OR_FOLLOWER);
        }
        Errors epochError = LeaderEpochCheck.check(state.currentLeaderEpoch(), partition.leaderEpoch());
        if (epochError != Errors.NONE) {
            return PartitionRead.failed(state, partition, epochError);
        }
        PartitionLog log = partition.log();
        // Taken once: the offset answered and the bound of the read are the same high watermark.
        LogOffsetMetadata highWatermarkPosition = log.highWatermarkMetadata();
        long highWatermark = highWatermarkPosition.offset();
        long logStartOffset = log.logStartOffset();
        long fetchOffset = state.fetchOffset();
        if (fetchOffset < logStartOffset || fetchOffset > log.logEndOffset()) {
            return PartitionRead.failed(state, partition, Errors.OFFSET_OUT_OF_RANGE);
        }
        if (maxBytes == 0 && !minOneBatch) {
            // The response is full: the partition is answered with its offsets only, without a look at the log.
            return new PartitionRead(state, partition, Errors.NONE, highWatermark, highWatermark, logStartOffset,
                    NO_RECORDS, highWatermarkPosition);
        }
        try {
            FetchSlice slice = log.read(fetchOffset, maxBytes, highWatermarkPosition, minOneBatch);
            Records records = slice.isEmpty() ? NO_RECORDS
                    : new FileRecords(slice.channel(), slice.position(), slice.lengthBytes());
            // Until transactions exist nothing is pending, so the last stable offset is the high watermark.
            return new PartitionRead(state, partition, Errors.NONE, highWatermark, highWatermark, logStartOffset,
                    records, highWatermarkPosition);
        } catch (OffsetOutOfRangeException e) {
            // Retention or DeleteRecords moved the log start past the offset since it was checked.
            return PartitionRead.failed(state, partition, Errors.OFFSET_OUT_OF_RANGE);
        } catch (IOException e) {
            LOG.error("Fetch of {} at offset {} failed to read {}", partition, fetchOffset, log.dir(), e);
            return PartitionRead.failed(state, partition, Errors.KAFKA_STORAGE_ERROR);
        }
    }
}
