package dev.spool.broker.produce;

import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.partition.PartitionManagerFixture;
import java.util.function.Predicate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.purgatory.ManualWaitTimer;
import dev.spool.log.LogConfig;
import dev.spool.log.LogLoadOptions;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.log.record.CompressionType;
import dev.spool.log.record.Header;
import dev.spool.log.record.Record;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchBuilder;
import dev.spool.log.producer.ProducerSnapshotFile;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The append path of one partition against a real log: idempotence, snapshots, recovery. */
class PartitionAppenderTest {

    /** The appenders here run on broker 1, which leads the partitions assigned to it. */
    private static final Predicate<PartitionImage> LEADS_AS_BROKER_1 = assignment -> assignment.leader() == 1;
    private static final long NOW_MS = 1_800_000_000_000L;
    private static final short VERSION = 11;
    private static final long PRODUCER = 7;
    private static final long TIMEOUT_MS = 30_000;

    @TempDir
    Path dataDir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private Path dir;
    private PartitionLog log;
    private Partition partition;
    private PartitionAppender appender;
    private final ManualWaitTimer waits = new ManualWaitTimer();

    @AfterEach
    void closeLog() throws IOException {
        if (log != null) {
            log.close();
        }
        scheduler.shutdownNow();
    }

    private void open(LogConfig config) throws IOException {
        // A same-thread pool: each call completes before it returns.
        open(config, Runnable::run);
    }

    private void open(LogConfig config, Executor ioThreads) throws IOException {
        open(config, ioThreads, new PartitionImage(0, List.of(1), List.of(1), 1, 3, 0));
    }

    private void open(LogConfig config, Executor ioThreads, PartitionImage assignment) throws IOException {
        dir = dataDir.resolve("topic-0");
        log = PartitionLog.open(dir, config, () -> NOW_MS, scheduler);
        partition = new Partition(new TopicPartition("topic", 0), Uuid.randomUuid(), log, assignment);
        appender = new PartitionAppender(partition, LEADS_AS_BROKER_1, new SerialExecutor(ioThreads), () -> NOW_MS, waits);
    }

    @Test
    void anAppendQueuedWhileTheLeadershipEndsWritesNothingAndIsRefused() throws Exception {
        try (PartitionManagerFixture fixture = new PartitionManagerFixture(dataDir.resolve("moving"))) {
            fixture.createTopic("moving", 1, List.of(1, 2));
            Partition moving = fixture.partitions().get("moving", 0);
            Queue<Runnable> ioThreads = new ArrayDeque<>();
            PartitionAppender movingAppender = new PartitionAppender(moving, fixture.partitions()::leads,
                    new SerialExecutor(ioThreads::add), () -> NOW_MS, waits);
            ByteBuffer compressed = new RecordBatchBuilder(CompressionType.LZ4).append(NOW_MS, null, new byte[100])
                    .build();
            CompletableFuture<PartitionProduceResponse> answer = movingAppender.append(compressed, VERSION, (short) -1,
                    TIMEOUT_MS);
            assertThat(answer).as("checked as leader, queued for the io threads").isNotDone();

            // Broker 2 leads the next epoch; this broker follows, and its log is the new leader's to fill.
            fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                    .setTopicId(fixture.image().topic("moving").id()).setPartitionId(0).setLeader(2)));
            ioThreads.remove().run();

            assertThat(fixture.log("moving", 0).logEndOffset()).as("nothing written in either epoch").isZero();
            assertThat(answer).as("answered at once").isDone();
            assertThat(answer.join().errorCode()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
        }
    }

    /** A clean shutdown and start: the log is closed, then opened as the log manager opens it after one. */
    private void reopen(LogConfig config) throws IOException {
        appender.close().join();
        long logEnd = log.logEndOffset();
        long logStart = log.logStartOffset();
        log.close();
        log = PartitionLog.open(dir, config, () -> NOW_MS, scheduler, new LogLoadOptions(logEnd, logStart, true));
        partition = new Partition(new TopicPartition("topic", 0), Uuid.randomUuid(), log, partition.assignment());
        appender = new PartitionAppender(partition, LEADS_AS_BROKER_1, new SerialExecutor(Runnable::run), () -> NOW_MS,
                waits);
    }

    private static ByteBuffer batch(long producerId, short epoch, int firstSequence, int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE).producer(producerId, epoch, firstSequence);
        for (int i = 0; i < records; i++) {
            builder.append(NOW_MS, null, ("record-" + firstSequence + "-" + i).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private PartitionProduceResponse append(ByteBuffer batch) {
        try {
            return appender.append(batch, VERSION, (short) -1, TIMEOUT_MS).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no answer to the append", e);
        }
    }

    @Test
    void appendsGetOffsetsMoveTheHighWatermarkAndWakeListeners() throws IOException {
        open(LogConfig.defaults());
        AtomicInteger woken = new AtomicInteger();
        partition.addAppendListener(p -> woken.incrementAndGet());
        assertThat(append(batch(-1, (short) -1, -1, 3)).baseOffset()).isZero();
        PartitionProduceResponse second = append(batch(-1, (short) -1, -1, 2));
        assertThat(second.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(second.baseOffset()).isEqualTo(3);
        assertThat(second.logAppendTimeMs()).isEqualTo(-1);
        assertThat(second.logStartOffset()).isZero();
        assertThat(log.highWatermark()).isEqualTo(5);
        assertThat(woken).hasValue(2);
    }

    @Test
    void anAppendRunsOnTheCallingThreadOnlyWhenItCanWaitOnNothingButItsWrite() throws IOException {
        Queue<Runnable> ioThreads = new ArrayDeque<>();
        open(LogConfig.defaults(), ioThreads::add);
        CompletableFuture<PartitionProduceResponse> first = appender.append(batch(PRODUCER, (short) 0, 0, 2), VERSION,
                (short) -1, TIMEOUT_MS);
        assertThat(first).as("the first append loads the producer state: on the io threads").isNotDone();
        ioThreads.remove().run();
        assertThat(first.join().baseOffset()).isZero();

        CompletableFuture<PartitionProduceResponse> second = appender.append(batch(PRODUCER, (short) 0, 2, 2), VERSION,
                (short) -1, TIMEOUT_MS);
        assertThat(second).as("an uncompressed batch: answered on the calling thread").isDone();
        assertThat(second.join().baseOffset()).isEqualTo(2);
        assertThat(ioThreads).isEmpty();

        ByteBuffer compressed = new RecordBatchBuilder(CompressionType.LZ4).producer(PRODUCER, (short) 0, 4)
                .append(NOW_MS, null, new byte[100]).build();
        CompletableFuture<PartitionProduceResponse> third = appender.append(compressed, VERSION, (short) -1, TIMEOUT_MS);
        assertThat(third).as("a compressed batch is inflated on the io threads").isNotDone();
        CompletableFuture<PartitionProduceResponse> fourth = appender.append(batch(PRODUCER, (short) 0, 5, 1), VERSION,
                (short) -1, TIMEOUT_MS);
        assertThat(fourth).as("queued behind the third").isNotDone();
        ioThreads.remove().run();
        assertThat(third.join().baseOffset()).isEqualTo(4);
        assertThat(fourth.join().baseOffset()).isEqualTo(5);
        assertThat(log.logEndOffset()).isEqualTo(6);
    }

    @Test
    void anAppendTheLogRefusesOnTheCallingThreadIsDoneOnTheIoThreadsFromTheSameBytes() throws IOException {
        Queue<Runnable> ioThreads = new ArrayDeque<>();
        ByteBuffer first = batch(PRODUCER, (short) 0, 0, 100);
        ByteBuffer rolling = batch(PRODUCER, (short) 0, 100, 100);
        int segmentBytes = first.remaining() + rolling.remaining() - 1; // the second batch needs a new segment
        open(LogConfig.defaults().with(Map.of("segment.bytes", String.valueOf(segmentBytes))), ioThreads::add);
        appender.append(first, VERSION, (short) -1, TIMEOUT_MS);
        ioThreads.remove().run();
        CompletableFuture<PartitionProduceResponse> rolled = appender.append(rolling, VERSION, (short) -1, TIMEOUT_MS);
        assertThat(rolled).as("a roll creates files: on the io threads").isNotDone();
        ioThreads.remove().run();
        assertThat(rolled.join().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(rolled.join().baseOffset()).isEqualTo(100);
        assertThat(log.segments()).hasSize(2);
        assertThat(log.highWatermark()).isEqualTo(200);
        assertThat(Files.exists(dir.resolve("00000000000000000100.snapshot"))).as("the roll's producer snapshot").isTrue();
        CompletableFuture<PartitionProduceResponse> next = appender.append(batch(PRODUCER, (short) 0, 200, 1), VERSION,
                (short) -1, TIMEOUT_MS);
        assertThat(next).as("the roll is known: back on the calling thread").isDone();
        assertThat(next.join().baseOffset()).isEqualTo(200);
        assertThat(ioThreads).isEmpty();
    }

    @Test
    void aTopicCompressionTypeStoresBatchesInThatCodecKeepingRecordsAndProducer() throws IOException {
        open(LogConfig.defaults().with(Map.of("compression.type", "gzip")));
        ByteBuffer produced = new RecordBatchBuilder(CompressionType.LZ4).producer(PRODUCER, (short) 2, 0)
                .append(NOW_MS - 5, "k0".getBytes(StandardCharsets.UTF_8), "v0".getBytes(StandardCharsets.UTF_8),
                        new Header("h", ByteBuffer.wrap(new byte[] {1, 2})))
                .append(NOW_MS, null, "v1".getBytes(StandardCharsets.UTF_8)).build();
        ByteBuffer retry = ByteBuffer.allocate(produced.remaining()).put(produced.duplicate()).flip();
        assertThat(append(produced).errorCode()).isEqualTo(Errors.NONE.code());

        RecordBatch stored = new RecordBatch().wrap(log.read(0, 1 << 20).readFully(), 0);
        assertThat(stored.compressionType()).isEqualTo(CompressionType.GZIP);
        assertThat(stored.producerId()).isEqualTo(PRODUCER);
        assertThat(stored.producerEpoch()).isEqualTo((short) 2);
        assertThat(stored.baseSequence()).isZero();
        assertThat(stored.validate().isValid()).isTrue();
        List<Record> records = stored.records();
        assertThat(records).extracting(Record::offset).containsExactly(0L, 1L);
        assertThat(records).extracting(Record::timestamp).containsExactly(NOW_MS - 5, NOW_MS);
        assertThat(StandardCharsets.UTF_8.decode(records.get(0).key()).toString()).isEqualTo("k0");
        assertThat(StandardCharsets.UTF_8.decode(records.get(1).value()).toString()).isEqualTo("v1");
        assertThat(records.get(0).headers()).containsExactly(new Header("h", ByteBuffer.wrap(new byte[] {1, 2})));

        PartitionProduceResponse duplicate = append(retry);
        assertThat(duplicate.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(duplicate.baseOffset()).as("the retry is known by its producer and sequences").isZero();
        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void theBrokerCompressesAtTheTopicsGzipLz4AndZstdLevels() throws IOException {
        open(LogConfig.defaults());
        Map<String, String> thoroughLevels = Map.of("gzip", "9", "lz4", "17", "zstd", "19");
        for (String codec : List.of("gzip", "lz4", "zstd")) {
            String key = "compression." + codec + ".level";
            String fast = "1";
            String thorough = thoroughLevels.get(codec);
            reopen(LogConfig.defaults().with(Map.of("compression.type", codec, key, fast)));
            int fastSize = storedSizeOf(append(text(-1, 400)));
            reopen(LogConfig.defaults().with(Map.of("compression.type", codec, key, thorough)));
            int thoroughSize = storedSizeOf(append(text(-1, 400)));
            assertThat(thoroughSize).as(codec + " level " + thorough + " against level " + fast).isLessThan(fastSize);
        }
    }

    /** A batch of {@code records} lines of English-like text: compressible, unlike counters or zeros. */
    private static ByteBuffer text(long producerId, int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(CompressionType.NONE);
        java.util.Random random = new java.util.Random(42);
        String[] words = {"the", "log", "broker", "partition", "offset", "record", "batch", "segment", "index",
            "consumer", "producer", "leader", "replica", "epoch", "watermark"};
        for (int i = 0; i < records; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < 12; w++) {
                line.append(words[random.nextInt(words.length)]).append(random.nextInt(100)).append(' ');
            }
            builder.append(NOW_MS, null, line.toString().getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private int storedSizeOf(PartitionProduceResponse response) throws IOException {
        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        RecordBatch stored = new RecordBatch().wrap(log.read(response.baseOffset(), 1 << 20).readFully(), 0);
        assertThat(stored.validate().isValid()).isTrue();
        return stored.sizeInBytes();
    }

    @Test
    void uncompressedStoresACompressedBatchInflatedUnlessItThenExceedsMaxMessageBytes() throws IOException {
        open(LogConfig.defaults().with(Map.of("compression.type", "uncompressed", "max.message.bytes", "5000")));
        ByteBuffer small = new RecordBatchBuilder(CompressionType.ZSTD).append(NOW_MS, null, new byte[1000]).build();
        assertThat(append(small).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(new RecordBatch().wrap(log.read(0, 1 << 20).readFully(), 0).compressionType())
                .isEqualTo(CompressionType.NONE);
        ByteBuffer inflatesPastTheLimit = new RecordBatchBuilder(CompressionType.ZSTD)
                .append(NOW_MS, null, new byte[10_000]).build();
        assertThat(inflatesPastTheLimit.remaining()).isLessThan(5000);
        PartitionProduceResponse refused = append(inflatesPastTheLimit);
        assertThat(refused.errorCode()).isEqualTo(Errors.MESSAGE_TOO_LARGE.code());
        assertThat(refused.errorMessage()).startsWith("Recompressed for compression.type uncompressed: The batch of");
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void aRetriedBatchGetsItsOriginalOffsetAndIsNotWrittenAgain() throws IOException {
        open(LogConfig.defaults());
        append(batch(PRODUCER, (short) 0, 0, 2));
        append(batch(PRODUCER, (short) 0, 2, 2));
        PartitionProduceResponse retry = append(batch(PRODUCER, (short) 0, 0, 2));
        assertThat(retry.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(retry.baseOffset()).isZero();
        assertThat(log.logEndOffset()).isEqualTo(4);
        PartitionProduceResponse gap = append(batch(PRODUCER, (short) 0, 9, 1));
        assertThat(gap.errorCode()).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
        assertThat(gap.errorMessage()).contains("after last sequence 3");
        append(batch(PRODUCER, (short) 1, 0, 1));
        assertThat(append(batch(PRODUCER, (short) 0, 4, 1)).errorCode()).isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
        assertThat(log.logEndOffset()).isEqualTo(5);
    }

    @Test
    void invalidBatchesAreAnsweredWithTheirErrorAndNotWritten() throws IOException {
        open(LogConfig.defaults().with(Map.of("max.message.bytes", "100")));
        PartitionProduceResponse tooLarge = append(batch(-1, (short) -1, -1, 10));
        assertThat(tooLarge.errorCode()).isEqualTo(Errors.MESSAGE_TOO_LARGE.code());
        assertThat(tooLarge.baseOffset()).isEqualTo(-1);
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void acksAllIsMetByOneBrokerWhateverMinInsyncReplicasSinceItIsCappedAtTheReplicationFactor() throws IOException {
        open(LogConfig.defaults().with(Map.of("min.insync.replicas", "2")));
        PartitionProduceResponse written = append(batch(-1, (short) -1, -1, 1));
        assertThat(written.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(written.baseOffset()).isZero();
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void acksAllNeedsMinInsyncReplicasInTheIsrTheMetadataImageGives() throws IOException {
        // Three replicas, and only the leader in sync: acks=all is refused before anything is written.
        open(LogConfig.defaults().with(Map.of("min.insync.replicas", "2")), Runnable::run,
                new PartitionImage(0, List.of(1, 2, 3), List.of(1), 1, 3, 0));
        PartitionProduceResponse refused = append(batch(-1, (short) -1, -1, 1));
        assertThat(refused.errorCode()).isEqualTo(Errors.NOT_ENOUGH_REPLICAS.code());
        assertThat(refused.errorMessage()).as("no message, as Kafka's").isNull();
        assertThat(log.logEndOffset()).isZero();

        // The ISR grew to two: the same batch is written.
        appender.close().join();
        log.close();
        open(LogConfig.defaults().with(Map.of("min.insync.replicas", "2")), Runnable::run,
                new PartitionImage(0, List.of(1, 2, 3), List.of(1, 2), 1, 3, 1));
        CompletableFuture<PartitionProduceResponse> written = appender.append(batch(-1, (short) -1, -1, 1), VERSION,
                (short) -1, TIMEOUT_MS);
        assertThat(log.logEndOffset()).isEqualTo(1);
        log.updateHighWatermark(1); // what the follower's fetch will do
        partition.notifyAppended();
        waits.runPending();
        assertThat(written.join().errorCode()).isEqualTo(Errors.NONE.code());
    }

    /** A leader with a follower in sync: its appends commit only when the high watermark moves. */
    private void openWithAFollowerInSync() throws IOException {
        open(LogConfig.defaults(), Runnable::run, new PartitionImage(0, List.of(1, 2), List.of(1, 2), 1, 3, 0));
    }

    @Test
    void acksAllIsAnsweredOnceTheHighWatermarkPassesTheBatch() throws IOException {
        openWithAFollowerInSync();
        CompletableFuture<PartitionProduceResponse> answer = appender.append(batch(-1, (short) -1, -1, 2), VERSION,
                (short) -1, TIMEOUT_MS);
        waits.runPending();
        assertThat(log.logEndOffset()).isEqualTo(2);
        assertThat(log.highWatermark()).as("not committed before the follower has it").isZero();
        assertThat(answer).isNotDone();

        log.updateHighWatermark(1); // the follower has the first record only
        partition.notifyAppended();
        waits.runPending();
        assertThat(answer).isNotDone();

        log.updateHighWatermark(2);
        partition.notifyAppended();
        waits.runPending();
        assertThat(answer.join().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answer.join().baseOffset()).isZero();
        assertThat(waits.liveTimeouts()).isZero();
    }

    @Test
    void acksAllTimesOutWhenTheBatchIsNotCommittedInTimeAndAcksOneNeverWaits() throws IOException {
        openWithAFollowerInSync();
        CompletableFuture<PartitionProduceResponse> all = appender.append(batch(-1, (short) -1, -1, 1), VERSION,
                (short) -1, TIMEOUT_MS);
        CompletableFuture<PartitionProduceResponse> one = appender.append(batch(-1, (short) -1, -1, 1), VERSION,
                (short) 1, TIMEOUT_MS);
        assertThat(one.join().baseOffset()).isEqualTo(1);

        waits.advance(TIMEOUT_MS - 1);
        assertThat(all).isNotDone();
        waits.advance(1);
        assertThat(all.join().errorCode()).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
        assertThat(log.logEndOffset()).as("written, not committed").isEqualTo(2);
        assertThat(log.highWatermark()).isZero();
    }

    @Test
    void aParkedAcksAllBatchThatIsNotCommittedIsAnsweredForItsOwnPartition() throws IOException {
        log = PartitionLog.open(dataDir.resolve("topic-2"), LogConfig.defaults(), () -> NOW_MS, scheduler);
        partition = new Partition(new TopicPartition("topic", 2), Uuid.randomUuid(), log,
                new PartitionImage(0, List.of(1, 2), List.of(1, 2), 1, 3, 0));
        appender = new PartitionAppender(partition, LEADS_AS_BROKER_1, new SerialExecutor(Runnable::run), () -> NOW_MS, waits);
        CompletableFuture<PartitionProduceResponse> answer = appender.append(batch(-1, (short) -1, -1, 1), VERSION,
                (short) -1, TIMEOUT_MS);
        waits.advance(TIMEOUT_MS);
        assertThat(answer.join().errorCode()).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
        assertThat(answer.join().index()).as("a client takes an answer for partition 0 as partition 0's").isEqualTo(2);
    }

    @Test
    void theEffectiveMinInsyncReplicasIsTheSmallerOfTheSettingAndTheReplicationFactor() {
        assertThat(Partition.effectiveMinInsyncReplicas(2, 1)).isEqualTo(1);
        assertThat(Partition.effectiveMinInsyncReplicas(2, 3)).isEqualTo(2);
        assertThat(Partition.effectiveMinInsyncReplicas(3, 3)).isEqualTo(3);
    }

    @Test
    void underLogAppendTimeTheAnswerCarriesTheAppendTimeAlsoForADuplicate() throws IOException {
        open(LogConfig.defaults().with(Map.of("message.timestamp.type", "LogAppendTime")));
        assertThat(append(batch(PRODUCER, (short) 0, 0, 2)).logAppendTimeMs()).isEqualTo(NOW_MS);
        PartitionProduceResponse retry = append(batch(PRODUCER, (short) 0, 0, 2));
        assertThat(retry.baseOffset()).isZero();
        assertThat(retry.logAppendTimeMs()).isEqualTo(NOW_MS);
    }

    @Test
    void aBatchTheBrokerRecompressesUnderLogAppendTimeCarriesTheAppendTime() throws IOException {
        open(LogConfig.defaults().with(Map.of("compression.type", "gzip", "message.timestamp.type", "LogAppendTime")));
        ByteBuffer produced = new RecordBatchBuilder(CompressionType.LZ4).producer(PRODUCER, (short) 0, 0)
                .append(NOW_MS - 5_000, null, "v0".getBytes(StandardCharsets.UTF_8))
                .append(NOW_MS - 4_000, null, "v1".getBytes(StandardCharsets.UTF_8)).build();

        assertThat(append(produced).logAppendTimeMs()).isEqualTo(NOW_MS);

        RecordBatch stored = new RecordBatch().wrap(log.read(0, 1 << 20).readFully(), 0);
        assertThat(stored.compressionType()).isEqualTo(CompressionType.GZIP);
        assertThat(stored.isLogAppendTime()).isTrue();
        assertThat(stored.maxTimestamp()).isEqualTo(NOW_MS);
        assertThat(stored.validate().isValid()).as("the checksum covers the rewritten header").isTrue();
        assertThat(stored.records()).extracting(r -> StandardCharsets.UTF_8.decode(r.value()).toString())
                .containsExactly("v0", "v1");
    }

    @Test
    void aRestartWithoutSnapshotsRebuildsDuplicateDetectionFromRecompressedBatches() throws IOException {
        LogConfig gzip = LogConfig.defaults().with(Map.of("compression.type", "gzip"));
        open(gzip);
        ByteBuffer first = new RecordBatchBuilder(CompressionType.LZ4).producer(PRODUCER, (short) 0, 0)
                .append(NOW_MS, null, "a".getBytes(StandardCharsets.UTF_8))
                .append(NOW_MS, null, "b".getBytes(StandardCharsets.UTF_8)).build();
        ByteBuffer second = new RecordBatchBuilder(CompressionType.LZ4).producer(PRODUCER, (short) 0, 2)
                .append(NOW_MS, null, "c".getBytes(StandardCharsets.UTF_8)).build();
        ByteBuffer retry = ByteBuffer.allocate(second.remaining()).put(second.duplicate()).flip();
        append(first);
        assertThat(append(second).baseOffset()).isEqualTo(2);

        appender.close().join();
        log.close();
        for (Path snapshot : ProducerSnapshotFile.list(dir).values()) {
            Files.delete(snapshot);
        }
        assertThat(ProducerSnapshotFile.list(dir)).isEmpty();
        open(gzip); // as after a crash: the producer state comes from replaying the stored (gzip) batches

        PartitionProduceResponse duplicate = append(retry);
        assertThat(duplicate.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(duplicate.baseOffset()).as("the retry is known from the replayed batch").isEqualTo(2);
        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    @Test
    void aCleanShutdownSnapshotLetsARestartDeduplicateTheLastBatch() throws IOException {
        open(LogConfig.defaults());
        append(batch(PRODUCER, (short) 0, 0, 2));
        append(batch(PRODUCER, (short) 0, 2, 3));
        reopen(LogConfig.defaults());
        // At the first offset of the oldest cached batch: the restart replays both batches.
        assertThat(ProducerSnapshotFile.list(dir)).containsOnlyKeys(0L);
        PartitionProduceResponse retry = append(batch(PRODUCER, (short) 0, 2, 3));
        assertThat(retry.baseOffset()).isEqualTo(2);
        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(append(batch(PRODUCER, (short) 0, 5, 1)).baseOffset()).isEqualTo(5);
    }

    @Test
    void afterACleanShutdownARetryOfAnyOfTheLastFiveBatchesIsADuplicateWithItsOriginalOffsets() throws IOException {
        open(LogConfig.defaults());
        long other = PRODUCER + 1;
        long[] baseOffsets = new long[6];
        for (int i = 0; i < 6; i++) {
            baseOffsets[i] = append(batch(PRODUCER, (short) 0, 2 * i, 2)).baseOffset();
            append(batch(other, (short) 3, i, 1));
            append(batch(-1, (short) -1, -1, 1));
        }
        long endOffset = log.logEndOffset();
        reopen(LogConfig.defaults());

        // Batches 1-5 are the five cached; a retry of each gets its original offset and writes nothing.
        for (int i = 1; i < 6; i++) {
            PartitionProduceResponse retry = append(batch(PRODUCER, (short) 0, 2 * i, 2));
            assertThat(retry.errorCode()).as("batch %d", i).isEqualTo(Errors.NONE.code());
            assertThat(retry.baseOffset()).as("batch %d", i).isEqualTo(baseOffsets[i]);
        }
        assertThat(append(batch(other, (short) 3, 1, 1)).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(log.logEndOffset()).isEqualTo(endOffset);
        // The sixth batch back is beyond the window, as before a restart.
        assertThat(append(batch(PRODUCER, (short) 0, 0, 2)).errorCode())
                .isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
        assertThat(append(batch(PRODUCER, (short) 0, 12, 1)).baseOffset()).isEqualTo(endOffset);
        // The snapshot (Kafka's format) lies below the log end, at the oldest cached batch: both producers
        // have all their cached batches after it, so it holds neither and the replay recreates them.
        long snapshotOffset = ProducerSnapshotFile.list(dir).lastKey();
        assertThat(snapshotOffset).isEqualTo(baseOffsets[1]);
        assertThat(ProducerSnapshotFile.read(ProducerSnapshotFile.path(dir, snapshotOffset))).isEmpty();
    }

    @Test
    void theShutdownSnapshotReplaysNoFurtherBackThanTheActiveSegment() throws IOException {
        LogConfig smallSegments = LogConfig.defaults().with(Map.of("segment.bytes", "400"));
        open(smallSegments);
        long early = PRODUCER + 1;
        for (int i = 0; i < 3; i++) {
            append(batch(early, (short) 0, i, 1));
        }
        long[] baseOffsets = new long[8];
        for (int i = 0; i < 8; i++) {
            baseOffsets[i] = append(batch(PRODUCER, (short) 0, i, 1)).baseOffset();
        }
        long activeBase = log.segments().get(log.segments().size() - 1).baseOffset();
        assertThat(activeBase).isGreaterThan(2);
        reopen(smallSegments);

        assertThat(ProducerSnapshotFile.list(dir).lastKey()).isGreaterThanOrEqualTo(activeBase);
        // The early producer keeps its last batch (from the snapshot); the recent one its last five.
        assertThat(append(batch(early, (short) 0, 2, 1)).baseOffset()).isEqualTo(2);
        assertThat(append(batch(early, (short) 0, 1, 1)).errorCode()).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
        for (int i = 3; i < 8; i++) {
            if (baseOffsets[i] >= activeBase) {
                assertThat(append(batch(PRODUCER, (short) 0, i, 1)).baseOffset()).as("batch %d", i)
                        .isEqualTo(baseOffsets[i]);
            }
        }
    }

    @Test
    void withoutASnapshotTheStateIsRebuiltFromTheLog() throws IOException {
        open(LogConfig.defaults());
        append(batch(PRODUCER, (short) 0, 0, 2));
        append(batch(-1, (short) -1, -1, 1));
        append(batch(PRODUCER, (short) 0, 2, 3));
        appender.close().join();
        log.close();
        for (Path snapshot : ProducerSnapshotFile.list(dir).values()) {
            Files.delete(snapshot);
        }
        open(LogConfig.defaults());
        assertThat(appender.producers().join()).singleElement()
                .satisfies(producer -> assertThat(producer.lastSequence()).isEqualTo(4));
        assertThat(append(batch(PRODUCER, (short) 0, 0, 2)).baseOffset()).as("both batches are cached").isZero();
        assertThat(append(batch(PRODUCER, (short) 0, 2, 3)).baseOffset()).isEqualTo(3);
        assertThat(log.logEndOffset()).isEqualTo(6);
    }

    @Test
    void aRollSnapshotsTheStateAtTheNewSegmentsBaseOffsetAndADamagedSnapshotIsReplacedByTheLog() throws IOException {
        LogConfig smallSegments = LogConfig.defaults().with(Map.of("segment.bytes", "300"));
        open(smallSegments);
        int sequence = 0;
        for (int i = 0; i < 6; i++) {
            append(batch(PRODUCER, (short) 0, sequence, 2));
            sequence += 2;
        }
        List<Long> segmentBases = log.segments().stream().map(segment -> segment.baseOffset()).toList();
        assertThat(segmentBases).hasSizeGreaterThan(1);
        assertThat(ProducerSnapshotFile.list(dir).keySet()).containsAll(segmentBases.subList(1, segmentBases.size()));
        long lastRoll = segmentBases.get(segmentBases.size() - 1);
        assertThat(ProducerSnapshotFile.read(ProducerSnapshotFile.path(dir, lastRoll)).get(0).lastOffset())
                .isEqualTo(lastRoll - 1);
        // A crash (no shutdown snapshot), a stale snapshot beyond the log end and a damaged newest one.
        log.closeAfterFailure();
        Files.write(ProducerSnapshotFile.path(dir, 1000), new byte[] {0, 1});
        Files.write(ProducerSnapshotFile.path(dir, lastRoll), new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        open(smallSegments);
        assertThat(appender.producers().join()).singleElement()
                .satisfies(producer -> assertThat(producer.lastSequence()).isEqualTo(11));
        assertThat(ProducerSnapshotFile.list(dir)).doesNotContainKeys(1000L, lastRoll);
        assertThat(append(batch(PRODUCER, (short) 0, 10, 2)).baseOffset()).isEqualTo(10);
        assertThat(log.logEndOffset()).isEqualTo(12);
    }
}
