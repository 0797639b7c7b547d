package dev.spool.broker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.record.RecordBatchLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpLogCommandTest {

    private static final long TIMESTAMP_MS = 1_700_000_000_000L;
    private static final String SEGMENT = "00000000000000000000";

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void printsEveryBatchAndRecordAsWritten() throws IOException {
        Path partition = writeLog(CompressionType.NONE);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", "--print-data-log",
                partition.resolve(SEGMENT + ".log").toString());

        assertThat(result.exitCode()).isZero();
        List<String> lines = result.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("Dumping " + partition.resolve(SEGMENT + ".log"));
        assertThat(lines.get(1)).isEqualTo("Log starting offset: 0");
        assertThat(lines.stream().filter(line -> line.startsWith("baseOffset: "))).hasSize(10);
        assertThat(lines.get(2)).startsWith("baseOffset: 0 lastOffset: 2 count: 3 baseSequence: -1 lastSequence: -1 "
                + "producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 4 isTransactional: false isControl: false "
                + "deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: " + (TIMESTAMP_MS + 2)).contains("compresscodec: none").endsWith("isvalid: true");
        assertThat(lines.get(3)).isEqualTo("| offset: 0 CreateTime: " + TIMESTAMP_MS
                + " keySize: 5 valueSize: 7 sequence: -1 headerKeys: [h] key: key-0 payload: value-0");
        List<String> records = lines.stream().filter(line -> line.startsWith("| offset: ")).toList();
        assertThat(records).hasSize(30);
        for (int offset = 0; offset < 30; offset++) {
            assertThat(records.get(offset)).startsWith("| offset: " + offset + " ")
                    .endsWith(" key: key-" + offset + " payload: value-" + offset);
        }
    }

    @Test
    void decompressesCompressedBatches() throws IOException {
        Path partition = writeLog(CompressionType.ZSTD);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", partition.resolve(SEGMENT + ".log").toString());

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("compresscodec: zstd").doesNotContain("payload:");
        assertThat(result.out().lines().filter(line -> line.startsWith("| offset: "))).hasSize(30);
    }

    @Test
    void verifiesTheIndexesAgainstTheSegment() throws IOException {
        Path partition = writeLog(CompressionType.NONE);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", partition.resolve(SEGMENT + ".index").toString(),
                partition.resolve(SEGMENT + ".timeindex").toString());

        assertThat(result.exitCode()).as(result.out()).isZero();
        assertThat(result.out()).contains("offset: 5 position: ").contains("timestamp: " + (TIMESTAMP_MS + 5) + " offset: 5")
                .doesNotContain("mismatch");
        assertThat(result.out().lines().filter(line -> line.equals("Index verified against " + SEGMENT + ".log")))
                .hasSize(2);
    }

    @Test
    void reportsAnIndexEntryThatPointsAtTheWrongBatch() throws IOException {
        Path partition = writeLog(CompressionType.NONE);
        Path index = partition.resolve(SEGMENT + ".index");
        try (FileChannel channel = FileChannel.open(index, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).putInt(0, 10), 16); // third entry's relative offset: 11 -> 10
        }
        byte[] before = Files.readAllBytes(index);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", index.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("Index mismatch").contains("entry offset 10").contains("ends at offset 11");
        assertThat(Files.readAllBytes(index)).as("the index is not changed").isEqualTo(before);
    }

    @Test
    void reportsInvalidBytesAfterTheLastBatch() throws IOException {
        Path partition = writeLog(CompressionType.NONE);
        Path log = partition.resolve(SEGMENT + ".log");
        long size = Files.size(log);
        Files.write(log, new byte[] {0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 100}, StandardOpenOption.APPEND);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", log.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("Found invalid bytes at position " + size);
    }

    @Test
    void reportsARecordWhoseOffsetIsOutsideItsBatch() throws IOException {
        Path partition = dir.resolve("fuzz-0");
        // Three records (no key, value "v", 8 bytes each); the third's offset delta 2 becomes 48, CRC fixed:
        // what a produce of garbage records could store before ProduceBatchValidator checked the deltas.
        ByteBuffer batch = new RecordBatchBuilder(CompressionType.NONE).append(TIMESTAMP_MS, null, bytes("v"))
                .append(TIMESTAMP_MS, null, bytes("v")).append(TIMESTAMP_MS, null, bytes("v")).build();
        int thirdDelta = batch.position() + RecordBatchLayout.RECORDS_OFFSET + 2 * 8 + 3;
        assertThat(batch.get(thirdDelta)).isEqualTo((byte) 4);
        batch.put(thirdDelta, (byte) 96);
        RecordBatch flyweight = new RecordBatch();
        flyweight.wrap(batch, batch.position());
        flyweight.writeChecksum();
        try (PartitionLog log = PartitionLog.open(partition, LogConfig.defaults(), () -> TIMESTAMP_MS, scheduler)) {
            log.appendAsLeader(batch, 0);
        }

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", partition.resolve(SEGMENT + ".log").toString());

        assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
        assertThat(result.out()).contains("| offset: 1 ")
                .contains("Found record 2 at offset 48 in the batch at base offset 0: record offsets must increase"
                        + " within [0, 2]");
    }

    @Test
    void takesKafkasCommaSeparatedFilesOption() throws IOException {
        Path partition = writeLog(CompressionType.NONE);

        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", "--files",
                partition.resolve(SEGMENT + ".log") + "," + partition.resolve(SEGMENT + ".index"));

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().lines().filter(line -> line.startsWith("Dumping "))).hasSize(2);
        assertThat(ServerCommandTest.run("dump-log").exitCode()).isEqualTo(2);
    }

    @Test
    void missingFileExitsWithOne() {
        ServerCommandTest.Result result = ServerCommandTest.run("dump-log", dir.resolve("nothing.log").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("No such file");
    }

    /** Ten batches of three records (key-N, value-N, header h), an index entry after every batch. */
    private Path writeLog(CompressionType compression) throws IOException {
        Path partition = dir.resolve("orders-0");
        LogConfig config = LogConfig.fromProperties(Map.of("index.interval.bytes", "1"));
        try (PartitionLog log = PartitionLog.open(partition, config, () -> TIMESTAMP_MS, scheduler)) {
            for (int batch = 0; batch < 10; batch++) {
                RecordBatchBuilder builder = new RecordBatchBuilder(compression);
                for (int i = 0; i < 3; i++) {
                    int offset = batch * 3 + i;
                    builder.append(TIMESTAMP_MS + offset, bytes("key-" + offset), bytes("value-" + offset),
                            Header.of("h", bytes("x" + offset)));
                }
                log.appendAsLeader(builder.build(), 4);
            }
        }
        assertThat(Arrays.stream(partition.toFile().list()).sorted())
                .contains(SEGMENT + ".log", SEGMENT + ".index", SEGMENT + ".timeindex");
        return partition;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
