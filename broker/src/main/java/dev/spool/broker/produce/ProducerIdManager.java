package dev.spool.broker.produce;

import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe: hands out producer ids from blocks of {@link ProducerIdBlocks#BLOCK_SIZE} reserved by the active
 * controller (a ProducerIdsRecord moves the image's next free id past the block before any id of it is used), so
 * an id is never handed out twice, even across restarts: ids of a block not used before a restart are
 * skipped, as in Kafka (KIP-730).
 */
public final class ProducerIdManager {

    /** There are no broker epochs on one broker; the record field is filled with this. */
    private static final long NO_BROKER_EPOCH = -1L;

    private final ProducerIdBlocks blocks;
    private final int brokerId;
    private long nextId;
    private long blockEndExclusive;

    public ProducerIdManager(ProducerIdBlocks blocks, int brokerId) {
        this.blocks = blocks;
        this.brokerId = brokerId;
    }

    /** The next unused producer id; completes at once unless a new block must be reserved first. */
    public CompletableFuture<Long> nextProducerId() {
        synchronized (this) {
            if (nextId < blockEndExclusive) {
                return CompletableFuture.completedFuture(nextId++);
            }
        }
        return blocks.reserve(brokerId, NO_BROKER_EPOCH).thenApply(this::takeFromBlock);
    }

    /** Uses the current block if another caller already refilled it; otherwise switches to the new one. */
    private synchronized long takeFromBlock(long newBlockStart) {
        if (nextId >= blockEndExclusive) {
            nextId = newBlockStart;
            blockEndExclusive = newBlockStart + ProducerIdBlocks.BLOCK_SIZE;
        }
        return nextId++;
    }
}
