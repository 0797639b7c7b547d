package dev.spool.bench;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ListOffsetsRequestData;
import dev.spool.protocol.message.ListOffsetsResponseData;
import dev.spool.protocol.types.Records;
import dev.spool.protocol.types.Uuid;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * For {@link NullBroker}: Fetch and ListOffsets over the partitions of a log directory
 * ({@link StoredPartition}), answered at once. No fetch sessions (every Fetch is a full one), no
 * waiting for data (a Fetch at the end comes back empty at once), no leader epochs; ListOffsets answers
 * the earliest offset with the first stored batch's and any other query with the end.
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

    /** Prints {@code topic NAME: N records} for each stored topic: the records a consumer of all of it gets. */
    void describe(PrintStream out) {
        topics.forEach((name, partitions) -> out.println("topic " + name + ": "
                + Arrays.stream(partitions).mapToLong(StoredPartition::records).sum() + " records"));
    }

    void register(ApiRegistry registry) {
        registry.register(ApiKey.FETCH, 4, ApiKey.FETCH.highestVersion,
                        (context, request) -> NullBroker.answer(fetch((FetchRequestData) request)))
                .register(ApiKey.LIST_OFFSETS, 1, ApiKey.LIST_OFFSETS.highestVersion,
                        (context, request) -> NullBroker.answer(listOffsets((ListOffsetsRequestData) request)));
    }

    private FetchResponseData fetch(FetchRequestData request) {
        List<FetchResponseData.FetchableTopicResponse> responses = new ArrayList<>();
        int budget = request.maxBytes();
        boolean first = true; // as a broker: only the first partition with data may exceed the limits
        for (FetchRequestData.FetchTopic topic : request.topics()) {
            boolean byId = topic.topic() == null || topic.topic().isEmpty();
            String name = byId ? names.get(topic.topicId()) : topic.topic();
            StoredPartition[] stored = name == null ? null : topics.get(name);
            List<FetchResponseData.PartitionData> partitions = new ArrayList<>();
            for (FetchRequestData.FetchPartition wanted : topic.partitions()) {
                FetchResponseData.PartitionData data = new FetchResponseData.PartitionData()
                        .setPartitionIndex(wanted.partition()).setPreferredReadReplica(-1);
                partitions.add(data);
                if (stored == null || wanted.partition() < 0 || wanted.partition() >= stored.length) {
                    data.setErrorCode((byId && stored == null ? Errors.UNKNOWN_TOPIC_ID
                            : Errors.UNKNOWN_TOPIC_OR_PARTITION).code());
                    continue;
                }
                StoredPartition partition = stored[wanted.partition()];
                Records records = partition.read(wanted.fetchOffset(),
                        Math.min(wanted.partitionMaxBytes(), Math.max(budget, 0)), first);
                first &= records.sizeInBytes() == 0;
                budget -= records.sizeInBytes();
                data.setHighWatermark(partition.endOffset()).setLastStableOffset(partition.endOffset())
                        .setLogStartOffset(partition.startOffset()).setRecords(records);
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
                ListOffsetsResponseData.ListOffsetsPartitionResponse answer =
                        new ListOffsetsResponseData.ListOffsetsPartitionResponse()
                                .setPartitionIndex(wanted.partitionIndex()).setTimestamp(-1).setLeaderEpoch(0);
                partitions.add(answer);
                if (wanted.partitionIndex() < 0 || wanted.partitionIndex() >= stored.length) {
                    answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                StoredPartition partition = stored[wanted.partitionIndex()];
                answer.setOffset(wanted.timestamp() == EARLIEST_TIMESTAMP ? partition.startOffset()
                        : partition.endOffset());
            }
            responses.add(new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(topic.name())
                    .setPartitions(partitions));
        }
        return new ListOffsetsResponseData().setTopics(responses);
    }
}
