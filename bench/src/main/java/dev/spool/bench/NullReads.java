package dev.spool.bench;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * For {@link NullBroker}: Fetch and ListOffsets over the partitions of a log directory
 * ({@link StoredPartition}), answered at once. No fetch sessions (every Fetch is a full one), no
 * waiting for data (a Fetch at the end comes back empty at once), no leader epochs and every offset
 * from 0 on (ListOffsets answers the earliest offset with 0 and any other query with the end).
 * Thread-safe: the partitions do not change.
 */
final class NullReads {

    private static final long EARLIEST_TIMESTAMP = -2;

    private final Map<String, StoredPartition[]> topics;
    private final Map<Uuid, String> names = new HashMap<>();

    NullReads(Map<String, StoredPartition[]> topics) {
        this.topics = topics;
        topics.keySet().forEach(name -> names.put(NullBroker.topicId(name), name));
    }

    /** The partition count of a stored topic, or 0 when none is stored under that name. */
    int partitionCount(String topic) {
        StoredPartition[] partitions = topics.get(topic);
        return partitions == null ? 0 : partitions.length;
    }

    /** Prints {@code topic NAME: N records} for each stored topic (its partitions start at offset 0). */
    void describe(PrintStream out) {
        topics.forEach((name, partitions) -> out.println("topic " + name + ": "
                + Arrays.stream(partitions).mapToLong(StoredPartition::endOffset).sum() + " records"));
    }

    void register(ApiRegistry registry) {
        registry.register(ApiKey.FETCH, 4, ApiKey.FETCH.highestVersion,
                        (context, request) -> answer(fetch((FetchRequestData) request)))
                .register(ApiKey.LIST_OFFSETS, 1, ApiKey.LIST_OFFSETS.highestVersion,
                        (context, request) -> answer(listOffsets((ListOffsetsRequestData) request)));
    }

    private static CompletableFuture<Message> answer(Message response) {
        return CompletableFuture.completedFuture(response);
    }

    private FetchResponseData fetch(FetchRequestData request) {
        List<FetchResponseData.FetchableTopicResponse> responses = new ArrayList<>();
        int budget = request.maxBytes();
        for (FetchRequestData.FetchTopic topic : request.topics()) {
            String name = topic.topic() == null || topic.topic().isEmpty() ? names.get(topic.topicId()) : topic.topic();
            StoredPartition[] stored = topics.getOrDefault(name, new StoredPartition[0]);
            List<FetchResponseData.PartitionData> partitions = new ArrayList<>();
            for (FetchRequestData.FetchPartition wanted : topic.partitions()) {
                StoredPartition partition = stored[wanted.partition()];
                FetchResponseData.PartitionData data = new FetchResponseData.PartitionData()
                        .setPartitionIndex(wanted.partition()).setHighWatermark(partition.endOffset())
                        .setLastStableOffset(partition.endOffset()).setLogStartOffset(0)
                        .setPreferredReadReplica(-1)
                        .setRecords(partition.read(wanted.fetchOffset(), Math.min(wanted.partitionMaxBytes(),
                                Math.max(budget, 1))));
                budget -= data.records().sizeInBytes();
                partitions.add(data);
            }
            responses.add(new FetchResponseData.FetchableTopicResponse().setTopic(name).setTopicId(topic.topicId())
                    .setPartitions(partitions));
        }
        return new FetchResponseData().setSessionId(0).setResponses(responses);
    }

    private ListOffsetsResponseData listOffsets(ListOffsetsRequestData request) {
        List<ListOffsetsResponseData.ListOffsetsTopicResponse> responses = new ArrayList<>();
        for (ListOffsetsRequestData.ListOffsetsTopic topic : request.topics()) {
            StoredPartition[] stored = topics.getOrDefault(topic.name(), new StoredPartition[0]);
            List<ListOffsetsResponseData.ListOffsetsPartitionResponse> partitions = new ArrayList<>();
            for (ListOffsetsRequestData.ListOffsetsPartition wanted : topic.partitions()) {
                long offset = wanted.timestamp() == EARLIEST_TIMESTAMP ? 0 : stored[wanted.partitionIndex()].endOffset();
                partitions.add(new ListOffsetsResponseData.ListOffsetsPartitionResponse()
                        .setPartitionIndex(wanted.partitionIndex()).setTimestamp(-1).setOffset(offset)
                        .setLeaderEpoch(0));
            }
            responses.add(new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(topic.name())
                    .setPartitions(partitions));
        }
        return new ListOffsetsResponseData().setTopics(responses);
    }
}
