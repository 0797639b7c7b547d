package dev.spool.broker.cli;

import dev.spool.log.LogFileNames;
import dev.spool.log.record.BatchValidation;
import dev.spool.log.record.CorruptRecordException;
import dev.spool.log.record.Header;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.log.segment.BatchFileReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: prints every batch of a segment file and the records in it, one line each, in the shape of
 * Kafka's {@code kafka-dump-log} so that an operator reads both alike. Reads through the log module's {@link
 * BatchFileReader}, which checks each batch's length, magic and CRC; checks that the records' offsets increase
 * within their batch's range.
 */
final class SegmentDump {

    private final PrintWriter out;
    private final boolean printData;

    SegmentDump(PrintWriter out, boolean printData) {
        this.out = out;
        this.printData = printData;
    }

    /** Prints the segment; false when it holds bytes that are not a valid batch. */
    boolean dump(Path file) throws IOException {
        long baseOffset = LogFileNames.baseOffsetOf(file.getFileName().toString(), LogFileNames.LOG_SUFFIX);
        out.println("Log starting offset: " + baseOffset);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            BatchFileReader reader = new BatchFileReader(channel, 0, channel.size());
            BatchValidation validation;
            while ((validation = reader.next()) != null) {
                if (!validation.isValid()) {
                    out.println("Found invalid bytes at position " + reader.batchPosition() + " of " + file + ": "
                            + validation + " (" + (channel.size() - reader.batchPosition()) + " bytes to the end)");
                    return false;
                }
                RecordBatch batch = reader.batch();
                out.println(describe(batch, reader.batchPosition()));
                if (!printRecords(batch)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String describe(RecordBatch batch, long position) {
        int count = batch.recordCount();
        int lastSequence = batch.baseSequence() < 0 ? -1 : batch.baseSequence() + count - 1;
        return "baseOffset: " + batch.baseOffset() + " lastOffset: " + batch.lastOffset() + " count: " + count
                + " baseSequence: " + batch.baseSequence() + " lastSequence: " + lastSequence
                + " producerId: " + batch.producerId() + " producerEpoch: " + batch.producerEpoch()
                + " partitionLeaderEpoch: " + batch.partitionLeaderEpoch()
                + " isTransactional: " + batch.isTransactional() + " isControl: " + batch.isControl()
                + " deleteHorizonMs: " + deleteHorizon(batch) + " position: " + position + " " + timestampType(batch) + ": " + batch.maxTimestamp()
                + " size: " + batch.sizeInBytes() + " magic: " + batch.magic()
                + " compresscodec: " + batch.compressionType().configName + " crc: " + batch.checksum()
                + " isvalid: true";
    }

    /** Kafka's words for a compacted batch's tombstone horizon (KIP-534): the base timestamp when flagged. */
    private static String deleteHorizon(RecordBatch batch) {
        boolean flagged = (batch.attributes() & RecordBatchLayout.DELETE_HORIZON_FLAG_MASK) != 0;
        return flagged ? "OptionalLong[" + batch.baseTimestamp() + "]" : "OptionalLong.empty";
    }

    private static String timestampType(RecordBatch batch) {
        return batch.isLogAppendTime() ? "LogAppendTime" : "CreateTime";
    }

    private boolean printRecords(RecordBatch batch) {
        List<Record> records;
        try {
            records = batch.records();
        } catch (CorruptRecordException e) {
            out.println("Found corrupt records in batch at base offset " + batch.baseOffset() + ": " + e.getMessage());
            return false;
        }
        long previousOffset = batch.baseOffset() - 1;
        for (int i = 0; i < records.size(); i++) {
            Record record = records.get(i);
            if (record.offset() <= previousOffset || record.offset() > batch.lastOffset()) {
                // Consumers take each record's offset from its delta: one out of order or past the batch's
                // last offset makes them skip the records that follow (a compacted batch may have gaps).
                out.println("Found record " + i + " at offset " + record.offset() + " in the batch at base offset "
                        + batch.baseOffset() + ": record offsets must increase within [" + batch.baseOffset() + ", "
                        + batch.lastOffset() + "]");
                return false;
            }
            previousOffset = record.offset();
            StringBuilder line = new StringBuilder("| offset: ").append(record.offset())
                    .append(' ').append(timestampType(batch)).append(": ").append(record.timestamp())
                    .append(" keySize: ").append(size(record.key()))
                    .append(" valueSize: ").append(size(record.value()))
                    .append(" sequence: ").append(batch.baseSequence() < 0 ? -1 : batch.baseSequence() + i)
                    .append(" headerKeys: ").append(headerKeys(record.headers()));
            if (printData) {
                line.append(" key: ").append(text(record.key())).append(" payload: ").append(text(record.value()));
            }
            out.println(line);
        }
        return true;
    }

    private static int size(ByteBuffer bytes) {
        return bytes == null ? -1 : bytes.remaining();
    }

    private static List<String> headerKeys(List<Header> headers) {
        List<String> keys = new ArrayList<>(headers.size());
        for (Header header : headers) {
            keys.add(header.key());
        }
        return keys;
    }

    /** The bytes as UTF-8 text (as Kafka's tool prints them), or null. */
    private static String text(ByteBuffer bytes) {
        return bytes == null ? "null" : StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
    }
}
