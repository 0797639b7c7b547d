package dev.spool.broker.txn;

import dev.spool.broker.coordinator.VersionedBytes;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.txn.TransactionLogKeyData;
import dev.spool.protocol.txn.TransactionLogValueData;
import dev.spool.protocol.txn.TransactionLogValueData.PartitionsSchema;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Stateless: the bytes of a {@code __transaction_state} record, as Kafka's transaction coordinator writes them, so
 * that Kafka's tools ({@code kafka-dump-log --transaction-log-decoder}) read Spool's partitions:
 *
 * <pre>
 * key:   | int16 version = 0 | TransactionLogKey (transactional id)             |
 * value: | int16 version     | TransactionLogValue (0, or 1: flexible, tagged)  |   (null: tombstone, the id expired)
 * </pre>
 */
final class TransactionRecords {

    private static final short KEY_VERSION = 0;
    /** What Kafka writes for a client of transactions v1. */
    static final short VALUE_VERSION = 0;
    /** What it writes for one of transactions v2: flexible, with the next producer id and the client's version tagged. */
    static final short TRANSACTIONS_V2_VALUE_VERSION = 1;

    /** A record read back: the id and its state, or null for a tombstone. */
    record Read(String transactionalId, TransactionMetadata metadata) {
    }

    private TransactionRecords() {
    }

    static byte[] key(String transactionalId) {
        return VersionedBytes.of(KEY_VERSION, new TransactionLogKeyData().setTransactionalId(transactionalId), KEY_VERSION);
    }

    static byte[] value(TransactionMetadata metadata) {
        List<PartitionsSchema> partitions = new ArrayList<>();
        PartitionsSchema current = null;
        for (TopicPartition partition : metadata.sortedPartitions()) {
            if (current == null || !current.topic().equals(partition.topic())) {
                current = new PartitionsSchema().setTopic(partition.topic()).setPartitionIds(new ArrayList<>());
                partitions.add(current);
            }
            current.partitionIds().add(partition.partition());
        }
        TransactionLogValueData value = new TransactionLogValueData()
                .setProducerId(metadata.producerId())
                .setPreviousProducerId(metadata.lastProducerId())
                .setProducerEpoch(metadata.producerEpoch())
                .setTransactionTimeoutMs(metadata.timeoutMs())
                .setTransactionStatus(metadata.state().id)
                .setTransactionPartitions(partitions)
                .setTransactionLastUpdateTimestampMs(metadata.updateTimestampMs())
                .setTransactionStartTimestampMs(metadata.startTimestampMs())
                .setNextProducerId(metadata.nextProducerId())
                .setClientTransactionVersion(metadata.clientTransactionVersion());
        short version = metadata.clientTransactionVersion() >= TransactionMetadata.TRANSACTIONS_V2
                ? TRANSACTIONS_V2_VALUE_VERSION : VALUE_VERSION;
        return VersionedBytes.of(version, value, version);
    }

    /** Reads a record; a version this broker does not know is refused loudly (its state would be wrong). */
    static Read read(ByteBuffer key, ByteBuffer value) {
        if (key == null || key.remaining() < 2) {
            throw new MessageParseException("__transaction_state record without a key");
        }
        ByteBuffer keyBytes = key.duplicate();
        short keyVersion = keyBytes.getShort();
        if (keyVersion != KEY_VERSION) {
            throw new MessageParseException("__transaction_state key version " + keyVersion + " is not " + KEY_VERSION);
        }
        String transactionalId = new TransactionLogKeyData(new ProtocolReader(keyBytes), KEY_VERSION).transactionalId();
        if (value == null) {
            return new Read(transactionalId, null);
        }
        ByteBuffer valueBytes = value.duplicate();
        short valueVersion = valueBytes.getShort();
        if (valueVersion < 0 || valueVersion > TransactionLogValueData.HIGHEST_SUPPORTED_VERSION) {
            throw new MessageParseException("TransactionLogValue version " + valueVersion + " of '" + transactionalId
                    + "' is not between 0 and " + TransactionLogValueData.HIGHEST_SUPPORTED_VERSION);
        }
        TransactionLogValueData data = new TransactionLogValueData(new ProtocolReader(valueBytes), valueVersion);
        Set<TopicPartition> partitions = new HashSet<>();
        if (data.transactionPartitions() != null) {
            for (PartitionsSchema topic : data.transactionPartitions()) {
                for (int index : topic.partitionIds()) {
                    partitions.add(new TopicPartition(topic.topic(), index));
                }
            }
        }
        return new Read(transactionalId, new TransactionMetadata(transactionalId, data.producerId(),
                data.previousProducerId(), data.nextProducerId(), data.producerEpoch(), (short) -1,
                data.transactionTimeoutMs(), TransactionState.of(data.transactionStatus()), partitions,
                data.transactionStartTimestampMs(), data.transactionLastUpdateTimestampMs(),
                data.clientTransactionVersion()));
    }
}
