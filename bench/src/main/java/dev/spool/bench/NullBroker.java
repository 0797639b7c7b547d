package dev.spool.bench;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.network.NetworkLimits;
import dev.spool.broker.network.NetworkServer;
import dev.spool.broker.network.NetworkTransport;
import dev.spool.broker.network.RequestObserver;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.InitProducerIdResponseData;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseBroker;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponsePartition;
import dev.spool.protocol.message.MetadataResponseData.MetadataResponseTopic;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.message.ProduceResponseData.PartitionProduceResponse;
import dev.spool.protocol.message.ProduceResponseData.TopicProduceResponse;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A measuring instrument, not a broker: it speaks just enough of the protocol for Kafka's perf tools
 * and answers every request at once. Run against it, a tool's figures are what the client and the
 * loopback cost with a broker that costs nothing, the floor under any broker's figures on this machine
 * ({@code bench/client-floor.sh}).
 * <ul>
 *   <li>{@code ProducerPerformance} (ApiVersions, Metadata, InitProducerId, Produce with acks 1 or
 *       all): every batch is acknowledged and dropped. Every topic asked for exists, with
 *       {@value #PARTITIONS} partitions led by this node; offsets count the records of each partition.
 *   <li>{@code ConsumerPerformance}, given a log directory a broker wrote: its topics are served
 *       read-only from their segment files ({@link NullReads}), to consumers in groups of one
 *       ({@link NullGroups}).
 * </ul>
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.spool.bench.NullBroker PORT [LOG_DIR]}
 * (port 0 picks one); prints {@code topic NAME: N records} for each stored topic, then
 * {@code listening on PORT}, and serves until killed.
 */
public final class NullBroker {

    static final int PARTITIONS = 6;
    private static final int NODE_ID = 0;

    private final AtomicLong producerIds = new AtomicLong(1_000);
    private final Map<String, AtomicLong> nextOffsets = new ConcurrentHashMap<>();
    private final NullReads reads;
    private volatile int port;

    private NullBroker(NullReads reads) {
        this.reads = reads;
    }

    public static void main(String[] args) throws Exception {
        int wanted = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        NullBroker broker = new NullBroker(new NullReads(args.length > 1
                ? StoredPartition.loadAll(Path.of(args[1])) : Map.of()));
        try (NetworkServer server = broker.server()) {
            broker.port = server.bind(new Endpoint("PLAINTEXT", "127.0.0.1", wanted)).port();
            broker.reads.describe(System.out);
            System.out.println("listening on " + broker.port);
            new CountDownLatch(1).await();
        }
    }

    private NetworkServer server() {
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
        registry.register(ApiKey.API_VERSIONS, 0, ApiKey.API_VERSIONS.highestVersion, apiVersions)
                .register(ApiKey.METADATA, 0, ApiKey.METADATA.highestVersion,
                        (context, request) -> answer(metadata((MetadataRequestData) request)))
                .register(ApiKey.INIT_PRODUCER_ID, 0, ApiKey.INIT_PRODUCER_ID.highestVersion,
                        (context, request) -> answer(new InitProducerIdResponseData()
                                .setProducerId(producerIds.getAndIncrement()).setProducerEpoch((short) 0)))
                .register(ApiKey.PRODUCE, 3, ApiKey.PRODUCE.highestVersion,
                        (context, request) -> answer(produce((ProduceRequestData) request)));
        NullGroups.register(registry, NODE_ID, () -> port);
        reads.register(registry);
        // The network settings of a broker started with no settings: Kafka's socket buffers, a thread a core.
        BrokerConfig stock = new BrokerConfig(Map.of());
        return new NetworkServer(registry, apiVersions, stock.socketRequestMaxBytes(),
                new NetworkTransport(stock.numNetworkThreads()), RequestObserver.NONE, NetworkLimits.of(stock));
    }

    /** An answer given at once, on the network thread that read the request. */
    static CompletableFuture<Message> answer(Message response) {
        return CompletableFuture.completedFuture(response);
    }

    private MetadataResponseData metadata(MetadataRequestData request) {
        List<MetadataResponseTopic> topics = new ArrayList<>();
        if (request.topics() != null) {
            for (MetadataRequestData.MetadataRequestTopic wanted : request.topics()) {
                topics.add(topic(wanted.name()));
            }
        }
        List<MetadataResponseBroker> brokers = new ArrayList<>();
        brokers.add(new MetadataResponseBroker().setNodeId(NODE_ID).setHost("127.0.0.1").setPort(port));
        return new MetadataResponseData().setBrokers(brokers).setClusterId("null-broker")
                .setControllerId(NODE_ID).setTopics(topics);
    }

    private MetadataResponseTopic topic(String name) {
        List<MetadataResponsePartition> partitions = new ArrayList<>();
        int count = reads.partitionCount(name) > 0 ? reads.partitionCount(name) : PARTITIONS;
        for (int p = 0; p < count; p++) {
            partitions.add(new MetadataResponsePartition().setPartitionIndex(p).setLeaderId(NODE_ID)
                    .setLeaderEpoch(0).setReplicaNodes(new ArrayList<>(List.of(NODE_ID)))
                    .setIsrNodes(new ArrayList<>(List.of(NODE_ID))).setOfflineReplicas(new ArrayList<>()));
        }
        return new MetadataResponseTopic().setName(name).setTopicId(topicId(name)).setPartitions(partitions);
    }

    /** A topic's id, the same for the same name (Produce v13 names topics by id only). */
    static Uuid topicId(String name) {
        java.util.UUID id = java.util.UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    private ProduceResponseData produce(ProduceRequestData request) {
        List<TopicProduceResponse> topics = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic : request.topicData()) {
            String key = topic.name() == null || topic.name().isEmpty() ? topic.topicId().toString() : topic.name();
            List<PartitionProduceResponse> partitions = new ArrayList<>();
            for (ProduceRequestData.PartitionProduceData data : topic.partitionData()) {
                long records = recordCount(((ByteBufferRecords) data.records()).buffer());
                long base = nextOffsets.computeIfAbsent(key + "-" + data.index(), k -> new AtomicLong())
                        .getAndAdd(records);
                partitions.add(new PartitionProduceResponse().setIndex(data.index()).setBaseOffset(base)
                        .setLogAppendTimeMs(-1).setLogStartOffset(0));
            }
            topics.add(new TopicProduceResponse().setName(topic.name()).setTopicId(topic.topicId())
                    .setPartitionResponses(partitions));
        }
        return new ProduceResponseData().setResponses(topics);
    }

    /** The records in a request's batches, read from each batch header's last offset delta. */
    private static long recordCount(ByteBuffer batches) {
        long count = 0;
        for (int at = batches.position(); at + RecordBatchLayout.HEADER_SIZE_BYTES <= batches.limit(); ) {
            int size = RecordBatch.sizeAt(batches, at);
            if (size < RecordBatchLayout.HEADER_SIZE_BYTES) {
                break; // not a batch: count what came before
            }
            count += batches.getInt(at + RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET) + 1;
            at += size;
        }
        return count;
    }

}
