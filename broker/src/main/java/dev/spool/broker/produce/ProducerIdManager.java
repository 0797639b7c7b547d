package dev.spool.broker.produce;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.ProducerIdsRecordData;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe: hands out producer ids from blocks of {@link #BLOCK_SIZE} reserved in the metadata log
 * (a ProducerIdsRecord moves the image's next free id past the block before any id of it is used), so
 * an id is never handed out twice, even across restarts: ids of a block not used before a restart are
 * skipped, as in Kafka (KIP-730).
 */
public final class ProducerIdManager {

    /** Ids per reservation: Kafka's controller hands brokers blocks of 1000. */
    public static final int BLOCK_SIZE = 1000;
    /** There are no broker epochs on one broker yet; the record field is filled with this. */
    private static final long NO_BROKER_EPOCH = -1L;

    private final MetadataManager metadata;
    private final int brokerId;
    private long nextId;
    private long blockEndExclusive;

    public ProducerIdManager(MetadataManager metadata, int brokerId) {
        this.metadata = metadata;
        this.brokerId = brokerId;
    }

    /** The next unused producer id; completes at once unless a new block must be reserved first. */
    public CompletableFuture<Long> nextProducerId() {
        synchronized (this) {
            if (nextId < blockEndExclusive) {
                return CompletableFuture.completedFuture(nextId++);
            }
        }
        return metadata.submit(image -> {
            long start = image.nextProducerId();
            ProducerIdsRecordData record = new ProducerIdsRecordData()
                    .setBrokerId(brokerId)
                    .setBrokerEpoch(NO_BROKER_EPOCH)
                    .setNextProducerId(start + BLOCK_SIZE);
            return new MetadataChange<>(List.of(VersionedRecord.of(MetadataRecordType.PRODUCER_IDS_RECORD, record)),
                    start);
        }).thenApply(this::takeFromBlock);
    }

    /** Uses the current block if another caller already refilled it; otherwise switches to the new one. */
    private synchronized long takeFromBlock(long newBlockStart) {
        if (nextId >= blockEndExclusive) {
            nextId = newBlockStart;
            blockEndExclusive = newBlockStart + BLOCK_SIZE;
        }
        return nextId++;
    }
}
