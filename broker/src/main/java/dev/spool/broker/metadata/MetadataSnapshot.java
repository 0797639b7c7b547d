package dev.spool.broker.metadata;

import dev.spool.broker.security.acl.AclRecords;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.protocol.message.SnapshotFooterRecordData;
import dev.spool.protocol.message.SnapshotHeaderRecordData;
import dev.spool.protocol.metadata.ConfigRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.ProducerIdsRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.metadata.UserScramCredentialRecordData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A snapshot of the metadata image: the records that rebuild it, in record batches, in the file
 * {@code <20-digit next offset>-<10-digit epoch>.checkpoint} of the metadata log directory (KRaft's
 * name). Loading the newest snapshot and replaying the log after it gives the same image as
 * replaying the whole log, so the log before a snapshot can be deleted. Thread-safe (static).
 *
 * <pre>
 * snapshot file = header batch, batch*, footer batch
 * header batch  = control batch of one record: key (version 0, type 3), value SnapshotHeaderRecord
 * batch         = records with null keys and MetadataRecordSerde values
 * footer batch  = control batch of one record: key (version 0, type 4), value SnapshotFooterRecord
 * </pre>
 */
public final class MetadataSnapshot {

    public static final String SUFFIX = ".checkpoint";
    private static final int RECORDS_PER_BATCH = 500;
    private static final int EPOCH = 0;
    /** Kafka's control record types that frame a snapshot. */
    private static final short SNAPSHOT_HEADER = 3;
    private static final short SNAPSHOT_FOOTER = 4;

    private MetadataSnapshot() {
    }

    /** The records that, applied to an empty image, rebuild {@code image}. */
    static List<VersionedRecord> recordsOf(MetadataImage image) {
        List<VersionedRecord> records = new ArrayList<>();
        for (TopicImage topic : image.topics()) {
            records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD,
                    new TopicRecordData().setName(topic.name()).setTopicId(topic.id())));
            for (PartitionImage partition : topic.partitions().values()) {
                PartitionRecordData record = new PartitionRecordData()
                        .setPartitionId(partition.partition())
                        .setTopicId(topic.id())
                        .setReplicas(new ArrayList<>(partition.replicas()))
                        .setIsr(new ArrayList<>(partition.isr()))
                        .setLeader(partition.leader())
                        .setLeaderEpoch(partition.leaderEpoch())
                        .setPartitionEpoch(partition.partitionEpoch())
                        .setAddingReplicas(new ArrayList<>(partition.addingReplicas()))
                        .setRemovingReplicas(new ArrayList<>(partition.removingReplicas()));
                boolean eligibleLeaders = !partition.elr().isEmpty() || !partition.lastKnownElr().isEmpty();
                if (eligibleLeaders) {
                    record.setEligibleLeaderReplicas(new ArrayList<>(partition.elr()))
                            .setLastKnownElr(new ArrayList<>(partition.lastKnownElr()));
                }
                records.add(new VersionedRecord(MetadataRecordType.PARTITION_RECORD,
                        eligibleLeaders ? PartitionChange.ELR_RECORD_VERSION : 0, record));
            }
        }
        for (Map.Entry<ConfigResource, Map<String, String>> resource : image.allConfigs().entrySet()) {
            for (Map.Entry<String, String> config : resource.getValue().entrySet()) {
                records.add(VersionedRecord.of(MetadataRecordType.CONFIG_RECORD, new ConfigRecordData()
                        .setResourceType(resource.getKey().type())
                        .setResourceName(resource.getKey().name())
                        .setName(config.getKey())
                        .setValue(config.getValue())));
            }
        }
        for (BrokerRegistration broker : image.brokers().values()) {
            records.add(BrokerRegistrations.recordOf(broker));
        }
        image.scramCredentials().forEach((user, credentials) -> credentials.values().forEach(credential ->
                records.add(VersionedRecord.of(MetadataRecordType.USER_SCRAM_CREDENTIAL_RECORD,
                        new UserScramCredentialRecordData().setName(user).setMechanism(credential.mechanism())
                                .setSalt(credential.salt()).setStoredKey(credential.storedKey())
                                .setServerKey(credential.serverKey()).setIterations(credential.iterations())))));
        image.acls().forEach((id, acl) -> records.add(VersionedRecord.of(
                MetadataRecordType.ACCESS_CONTROL_ENTRY_RECORD, AclRecords.recordOf(id, acl))));
        image.clientQuotas().forEach((entity, quotas) -> quotas.forEach((key, value) -> records.add(
                VersionedRecord.of(MetadataRecordType.CLIENT_QUOTA_RECORD, entity.record(key, value, false)))));
        if (image.nextProducerId() > 0) {
            records.add(VersionedRecord.of(MetadataRecordType.PRODUCER_IDS_RECORD,
                    new ProducerIdsRecordData().setNextProducerId(image.nextProducerId())));
        }
        return records;
    }

    /** Writes a snapshot of {@code image} (fsynced, then renamed into place) and returns its file. */
    public static Path write(Path dir, MetadataImage image, long nowMs) throws IOException {
        return write(dir, image, EPOCH, nowMs);
    }

    /**
     * Writes a snapshot of {@code image}, whose last record has leader epoch {@code epoch}, as Kafka writes one: a
     * control batch with the SnapshotHeaderRecord, the records in batches, a control batch with the
     * SnapshotFooterRecord. Fsynced, then renamed into place; returns its file.
     */
    public static Path write(Path dir, MetadataImage image, int epoch, long nowMs) throws IOException {
        Path file = dir.resolve(fileName(image.offset() + 1, epoch));
        Path temp = dir.resolve(file.getFileName() + ".part");
        List<VersionedRecord> records = recordsOf(image);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long offset = 0;
            writeFully(channel, controlBatch(offset++, epoch, nowMs, SNAPSHOT_HEADER,
                    new SnapshotHeaderRecordData().setVersion((short) 0).setLastContainedLogTimestamp(nowMs)));
            for (int from = 0; from < records.size(); from += RECORDS_PER_BATCH) {
                RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE).baseOffset(offset)
                        .partitionLeaderEpoch(epoch);
                List<VersionedRecord> chunk = records.subList(from, Math.min(records.size(), from + RECORDS_PER_BATCH));
                for (VersionedRecord record : chunk) {
                    builder.append(nowMs, null, MetadataLog.bytesOf(MetadataRecordSerde.serialize(record)));
                }
                offset += chunk.size();
                writeFully(channel, builder.build());
            }
            writeFully(channel, controlBatch(offset, epoch, nowMs, SNAPSHOT_FOOTER,
                    new SnapshotFooterRecordData().setVersion((short) 0)));
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** A control batch of one record: key = control record version 0 and {@code type}, value = {@code message} v0. */
    private static ByteBuffer controlBatch(long offset, int epoch, long nowMs, short type, Message message) {
        ByteBuffer key = ByteBuffer.allocate(4).putShort((short) 0).putShort(type).flip();
        ByteBuffer value = ByteBuffer.allocate(message.size((short) 0));
        message.write(new ByteBufferWriter(value), (short) 0);
        return new RecordBatchBuilder(CompressionType.NONE).baseOffset(offset).partitionLeaderEpoch(epoch)
                .control(true).append(nowMs, MetadataLog.bytesOf(key), MetadataLog.bytesOf(value.flip())).build();
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** The newest snapshot's image (its offset is the last one it covers), or the empty image. */
    public static MetadataImage loadNewest(Path dir) throws IOException {
        Path newest = null;
        long newestOffset = -1;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    long offset = offsetOf(file);
                    if (offset > newestOffset) {
                        newest = file;
                        newestOffset = offset;
                    }
                }
            }
        }
        return newest == null ? MetadataImage.EMPTY : load(newest);
    }

    /** The image a snapshot file holds (its offset is the last one the snapshot covers). */
    public static MetadataImage load(Path snapshot) throws IOException {
        long nextOffset = offsetOf(snapshot);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(snapshot));
        List<VersionedRecord> records = new ArrayList<>();
        RecordBatch batch = new RecordBatch();
        int position = 0;
        while (position < bytes.limit()) {
            int size = RecordBatch.sizeAt(bytes, position);
            if (size < 0 || position + size > bytes.limit() || !batch.wrap(bytes, position).validate().isValid()) {
                throw new IOException("metadata snapshot " + snapshot + " is damaged at byte " + position);
            }
            if (!batch.isControl()) { // the header and footer say nothing of the image
                for (Record record : batch.records()) {
                    records.add(MetadataRecordSerde.deserialize(record.value()));
                }
            }
            position += size;
        }
        return MetadataImage.EMPTY.apply(records, nextOffset - 1);
    }

    /** Deletes the snapshots older than the one at {@code keepOffset}. */
    static void deleteOlderThan(Path dir, long keepOffset) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                long offset = offsetOf(file);
                if (offset >= 0 && offset < keepOffset) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    static String fileName(long nextOffset) {
        return fileName(nextOffset, EPOCH);
    }

    public static String fileName(long nextOffset, int epoch) {
        return String.format("%020d-%010d%s", nextOffset, epoch, SUFFIX);
    }

    /** The leader epoch in a snapshot file's name (that of its last record), or -1 when it is not a snapshot. */
    public static int epochOf(Path file) {
        if (offsetOf(file) < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(file.getFileName().toString().substring(21, 31));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The next offset a snapshot file covers up to, or -1 when the file is not a snapshot. */
    public static long offsetOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(SUFFIX) || name.length() != 20 + 1 + 10 + SUFFIX.length()) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(0, 20));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
