package dev.spool.broker.produce;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.ProducerIdsRecordData;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a broker gets its blocks of producer ids: the active controller reserves each with a ProducerIdsRecord,
 * so that no two brokers ever hand out the same id. On another node of a cluster a block is asked for with
 * AllocateProducerIds.
 */
@FunctionalInterface
public interface ProducerIdBlocks {

    /** Producer ids a block holds, as Kafka's controller hands them out. */
    int BLOCK_SIZE = 1000;

    /** Reserves the next block for {@code brokerId}; completes with its first id. */
    CompletableFuture<Long> reserve(int brokerId, long brokerEpoch);

    /** Blocks reserved by this node's controller. */
    static ProducerIdBlocks local(MetadataManager metadata) {
        return (brokerId, brokerEpoch) -> metadata.submit(image -> {
            long start = image.nextProducerId();
            ProducerIdsRecordData record = new ProducerIdsRecordData().setBrokerId(brokerId)
                    .setBrokerEpoch(brokerEpoch).setNextProducerId(start + BLOCK_SIZE);
            return new MetadataChange<>(List.of(VersionedRecord.of(MetadataRecordType.PRODUCER_IDS_RECORD, record)),
                    start);
        });
    }
}
