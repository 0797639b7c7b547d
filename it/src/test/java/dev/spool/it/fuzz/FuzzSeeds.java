package dev.spool.it.fuzz;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * Well-formed requests to mutate, serialized by kafka-clients' own message classes: every API the
 * broker advertises, at every advertised version, default-filled, plus realistic Produce (plain and
 * compressed record batches), Fetch, Metadata, ListOffsets, group and offset requests naming the
 * fuzz topic. APIs that delete or reconfigure (DeleteTopics, CreateTopics, AlterConfigs...) are left
 * out so that a mutation cannot remove the topic the well-behaved client uses. Immutable after
 * construction; thread-safe.
 */
public final class FuzzSeeds {

    /** A request frame (without its size prefix) and, for Produce, where its record batch lies. */
    public record Seed(ApiKeys api, short version, byte[] body, int batchOffset, int batchLength) {
        public boolean hasBatch() {
            return batchOffset >= 0;
        }
    }

    private static final Set<ApiKeys> DESTRUCTIVE = EnumSet.of(ApiKeys.CREATE_TOPICS, ApiKeys.DELETE_TOPICS,
            ApiKeys.CREATE_PARTITIONS, ApiKeys.DELETE_RECORDS, ApiKeys.DELETE_GROUPS, ApiKeys.ALTER_CONFIGS,
            ApiKeys.INCREMENTAL_ALTER_CONFIGS, ApiKeys.OFFSET_DELETE);

    private final List<Seed> seeds = new ArrayList<>();
    private final List<Seed> bombs = new ArrayList<>();

    /** @param advertised api key -> [min, max] version as the broker's ApiVersions answer says */
    public FuzzSeeds(Map<ApiKeys, short[]> advertised, String topic, Uuid topicId) {
        this(advertised, topic, topicId, false);
    }

    /** With {@code destructive}, seeds of the APIs that delete and alter too (for a broker that must refuse them). */
    public FuzzSeeds(Map<ApiKeys, short[]> advertised, String topic, Uuid topicId, boolean destructive) {
        for (Map.Entry<ApiKeys, short[]> entry : advertised.entrySet()) {
            ApiKeys api = entry.getKey();
            if (!destructive && DESTRUCTIVE.contains(api)) {
                continue;
            }
            for (short version = entry.getValue()[0]; version <= entry.getValue()[1]; version++) {
                if (!api.isVersionSupported(version)) {
                    continue;
                }
                add(api, version, ApiMessageType.fromApiKey(api.id).newRequest(), null);
                ApiMessage realistic = realistic(api, version, topic, topicId);
                if (realistic != null) {
                    add(api, version, realistic, null);
                }
                if (api == ApiKeys.PRODUCE) {
                    for (Compression compression : List.of(Compression.NONE, Compression.gzip().build(),
                            Compression.snappy().build(), Compression.lz4().build(), Compression.zstd().build())) {
                        byte[] batch = batch(compression);
                        add(api, version, produce(version, topic, topicId, batch), batch);
                    }
                }
            }
        }
        if (seeds.isEmpty()) {
            throw new IllegalStateException("no seed requests: the broker advertised no API");
        }
        short[] produce = advertised.get(ApiKeys.PRODUCE);
        if (produce != null && produce[1] >= 7) {
            for (Compression compression : List.of(Compression.gzip().build(), Compression.lz4().build(),
                    Compression.zstd().build(), Compression.snappy().build())) {
                byte[] batch = bomb(compression);
                bombs.add(seed(ApiKeys.PRODUCE, produce[1], produce(produce[1], topic, topicId, batch), batch));
            }
        }
    }

    public List<Seed> all() {
        return seeds;
    }

    /**
     * Produce requests (latest version) whose one batch inflates far beyond its size: 80 records of 1 MiB
     * of zeros for gzip, lz4 and zstd (80 to 330 KB compressed, past the broker's 64 MiB inflation limit);
     * 4 for snappy, which cannot inflate more than about 21:1 (so its bombs must lie about their count to be
     * refused). Kept apart from {@link #all()}: they are sent as they are, not mutated at random.
     */
    public List<Seed> bombs() {
        return bombs;
    }

    private void add(ApiKeys api, short version, ApiMessage data, byte[] batch) {
        Seed seed = seed(api, version, data, batch);
        if (seed != null) {
            seeds.add(seed);
        }
    }

    private static Seed seed(ApiKeys api, short version, ApiMessage data, byte[] batch) {
        ByteBuffer serialized;
        try {
            RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id).setRequestApiVersion(version)
                    .setCorrelationId(1).setClientId("fuzz");
            serialized = RequestUtils.serialize(header, api.requestHeaderVersion(version), data, version);
        } catch (RuntimeException e) {
            return null; // a field this version cannot carry: no seed at this version
        }
        byte[] body = new byte[serialized.remaining()];
        serialized.get(body);
        int batchOffset = batch == null ? -1 : indexOf(body, batch);
        return new Seed(api, version, body, batchOffset, batch == null ? 0 : batch.length);
    }

    private static ApiMessage realistic(ApiKeys api, short version, String topic, Uuid topicId) {
        return switch (api) {
            case METADATA -> new MetadataRequestData().setAllowAutoTopicCreation(false).setTopics(List.of(
                    new MetadataRequestData.MetadataRequestTopic().setName(topic)
                            .setTopicId(version >= 10 ? topicId : Uuid.ZERO_UUID)));
            case FETCH -> new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1 << 20)
                    .setTopics(List.of(new FetchRequestData.FetchTopic()
                            .setTopic(version < 13 ? topic : "").setTopicId(version >= 13 ? topicId : Uuid.ZERO_UUID)
                            .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0)
                                    .setFetchOffset(0).setPartitionMaxBytes(1 << 16)))));
            case LIST_OFFSETS -> new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(
                    new ListOffsetsRequestData.ListOffsetsTopic().setName(topic).setPartitions(List.of(
                            new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1)))));
            case FIND_COORDINATOR -> version < 4 ? new FindCoordinatorRequestData().setKey("fuzz-group")
                    : new FindCoordinatorRequestData().setCoordinatorKeys(List.of("fuzz-group"));
            case JOIN_GROUP -> new JoinGroupRequestData().setGroupId("fuzz-group").setSessionTimeoutMs(6000)
                    .setRebalanceTimeoutMs(100).setProtocolType("consumer").setProtocols(
                            new JoinGroupRequestData.JoinGroupRequestProtocolCollection(List.of(
                                    new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
                                            .setMetadata(new byte[] {0, 1, 0, 0, 0, 0})).iterator()));
            case OFFSET_COMMIT -> new OffsetCommitRequestData().setGroupId("fuzz-commits").setGenerationIdOrMemberEpoch(-1)
                    .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic)
                            .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                    .setPartitionIndex(0).setCommittedOffset(0).setCommittedMetadata("m")))));
            case OFFSET_FETCH -> version < 8
                    ? new OffsetFetchRequestData().setGroupId("fuzz-commits").setTopics(List.of(
                            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName(topic).setPartitionIndexes(List.of(0))))
                    : new OffsetFetchRequestData().setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                            .setGroupId("fuzz-commits").setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                    .setName(topic).setPartitionIndexes(List.of(0))))));
            default -> null;
        };
    }

    private static ProduceRequestData produce(short version, String topic, Uuid topicId, byte[] batch) {
        ProduceRequestData.TopicProduceData data = new ProduceRequestData.TopicProduceData()
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0)
                        .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(batch)))));
        if (version >= 13) {
            data.setTopicId(topicId);
        } else {
            data.setName(topic);
        }
        return new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(data).iterator()));
    }

    private static byte[] batch(Compression compression) {
        SimpleRecord[] records = new SimpleRecord[3];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8),
                    ("fuzz seed value " + i).repeat(4).getBytes(StandardCharsets.UTF_8));
        }
        ByteBuffer buffer = MemoryRecords.withRecords(compression, records).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private static byte[] bomb(Compression compression) {
        byte[] zeros = new byte[1 << 20];
        SimpleRecord[] records = new SimpleRecord[compression.type() == CompressionType.SNAPPY ? 4 : 80];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), null, zeros);
        }
        ByteBuffer buffer = MemoryRecords.withRecords(compression, records).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("the record batch is not in its serialized request");
    }
}
