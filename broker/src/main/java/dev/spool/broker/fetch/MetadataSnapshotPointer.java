package dev.spool.broker.fetch;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Fetch on a voter, for {@code __cluster_metadata}: a broker whose fetch offset lies before the start of the
 * metadata log (a snapshot replaced what it lacks) is answered, as KRaft answers, with no error and the id of the
 * newest snapshot (SnapshotId: its end offset and epoch), which it then reads with FetchSnapshot. Every other
 * fetch passes through untouched. Thread-safe.
 */
public final class MetadataSnapshotPointer implements ApiHandler {

    /** The newest snapshot a voter keeps, or null; read when a fetch needs it. */
    @FunctionalInterface
    public interface NewestSnapshot {
        Path find() throws IOException;
    }

    private final ApiHandler fetch;
    private final NewestSnapshot newest;
    private final LongSupplier logStartOffset;

    /** {@code logStartOffset}: the start of the voter's metadata log, below which only a snapshot helps. */
    public MetadataSnapshotPointer(ApiHandler fetch, NewestSnapshot newest, LongSupplier logStartOffset) {
        this.fetch = fetch;
        this.newest = newest;
        this.logStartOffset = logStartOffset;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        long fetchOffset = metadataFetchOffset((FetchRequestData) message);
        // Only a fetch below the log start is pointed to a snapshot: one past the log end (a voter behind the
        // broker) stays OFFSET_OUT_OF_RANGE, or the broker would go back to an older image.
        if (fetchOffset < 0 || fetchOffset >= logStartOffset.getAsLong()) {
            return fetch.handle(context, message);
        }
        return fetch.handle(context, message).thenApply(answer -> {
            for (FetchResponseData.FetchableTopicResponse topic : ((FetchResponseData) answer).responses()) {
                if (!isMetadata(topic.topic(), topic.topicId())) {
                    continue;
                }
                for (FetchResponseData.PartitionData partition : topic.partitions()) {
                    if (partition.errorCode() == Errors.OFFSET_OUT_OF_RANGE.code()) {
                        pointToSnapshot(partition);
                    }
                }
            }
            return answer;
        });
    }

    private void pointToSnapshot(FetchResponseData.PartitionData partition) {
        try {
            Path snapshot = newest.find();
            if (snapshot != null) {
                partition.setErrorCode(Errors.NONE.code()).setSnapshotId(new FetchResponseData.SnapshotId()
                        .setEndOffset(MetadataSnapshot.offsetOf(snapshot)).setEpoch(MetadataSnapshot.epochOf(snapshot)));
            }
        } catch (IOException e) {
            // OFFSET_OUT_OF_RANGE stays: the broker asks again
        }
    }

    /** The offset a fetch asks of {@code __cluster_metadata}, or -1 when it does not ask for it. */
    private static long metadataFetchOffset(FetchRequestData request) {
        for (FetchRequestData.FetchTopic topic : request.topics()) {
            if (isMetadata(topic.topic(), topic.topicId())) {
                for (FetchRequestData.FetchPartition partition : topic.partitions()) {
                    if (partition.partition() == 0) {
                        return partition.fetchOffset();
                    }
                }
            }
        }
        return -1;
    }

    private static boolean isMetadata(String name, dev.spool.protocol.types.Uuid topicId) {
        return MetadataLog.TOPIC.equals(name) || MetadataPartitionLookup.METADATA_TOPIC_ID.equals(topicId);
    }
}
