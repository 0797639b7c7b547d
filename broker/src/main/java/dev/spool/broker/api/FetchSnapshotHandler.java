package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchSnapshotRequestData;
import dev.spool.protocol.message.FetchSnapshotResponseData;
import dev.spool.protocol.message.FetchSnapshotResponseData.PartitionSnapshot;
import dev.spool.protocol.message.FetchSnapshotResponseData.SnapshotId;
import dev.spool.protocol.message.FetchSnapshotResponseData.TopicSnapshot;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * FetchSnapshot (API 59) on a voter: a broker that fell behind the start of {@code __cluster_metadata} reads the
 * snapshot a metadata fetch pointed it to, a piece at a time from the position it asks for. The pieces are the
 * bytes of the checkpoint file as they are (Kafka's "unaligned records"). SNAPSHOT_NOT_FOUND for a snapshot this
 * voter no longer (or never) had, POSITION_OUT_OF_RANGE past its end. Files are read on {@code io}, never on a
 * network thread. Thread-safe.
 */
public final class FetchSnapshotHandler implements ApiHandler {

    private final Supplier<Path> snapshotDir;
    private final Executor io;

    /** Serves the checkpoints in {@code snapshotDir} (the quorum's), read on {@code io}. */
    public FetchSnapshotHandler(Supplier<Path> snapshotDir, Executor io) {
        this.snapshotDir = snapshotDir;
        this.io = io;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        FetchSnapshotRequestData request = (FetchSnapshotRequestData) message;
        return CompletableFuture.supplyAsync(() -> answer(request), io);
    }

    private Message answer(FetchSnapshotRequestData request) {
        List<TopicSnapshot> topics = new ArrayList<>();
        for (FetchSnapshotRequestData.TopicSnapshot topic : request.topics()) {
            List<PartitionSnapshot> partitions = new ArrayList<>();
            for (FetchSnapshotRequestData.PartitionSnapshot partition : topic.partitions()) {
                partitions.add(MetadataLog.TOPIC.equals(topic.name()) && partition.partition() == 0
                        ? read(partition, request.maxBytes())
                        : new PartitionSnapshot().setIndex(partition.partition())
                                .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
            }
            topics.add(new TopicSnapshot().setName(topic.name()).setPartitions(partitions));
        }
        return new FetchSnapshotResponseData().setTopics(topics);
    }

    private PartitionSnapshot read(FetchSnapshotRequestData.PartitionSnapshot wanted, int maxBytes) {
        long endOffset = wanted.snapshotId().endOffset();
        int epoch = wanted.snapshotId().epoch();
        PartitionSnapshot answer = new PartitionSnapshot().setIndex(0)
                .setSnapshotId(new SnapshotId().setEndOffset(endOffset).setEpoch(epoch));
        Path file = snapshotDir.get().resolve(MetadataSnapshot.fileName(endOffset, epoch));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (wanted.position() < 0 || wanted.position() > size) {
                return answer.setErrorCode(Errors.POSITION_OUT_OF_RANGE.code());
            }
            ByteBuffer piece = ByteBuffer.allocate((int) Math.min(Math.max(maxBytes, 1), size - wanted.position()));
            while (piece.hasRemaining() && channel.read(piece, wanted.position() + piece.position()) >= 0) {
                // read until the piece is full
            }
            return answer.setSize(size).setPosition(wanted.position())
                    .setUnalignedRecords(new ByteBufferRecords(piece.flip()));
        } catch (NoSuchFileException e) {
            return answer.setErrorCode(Errors.SNAPSHOT_NOT_FOUND.code());
        } catch (IOException e) {
            return answer.setErrorCode(Errors.UNKNOWN_SERVER_ERROR.code());
        }
    }
}
