package dev.spool.bench;

import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Uuid;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: builds the Produce and Fetch messages the codec and request-path benchmarks send,
 * shaped like what Kafka's perf tools send to one broker: one topic, {@link #PARTITIONS} partitions,
 * one 16 KiB batch per partition.
 */
final class WireMessages {
    static final int PARTITIONS = 6;
    static final short PRODUCE_VERSION = 11;
    static final short FETCH_VERSION = 15;

    private WireMessages() {
    }

    /** A Produce request (acks=1) with {@code batch} for each of the partitions. */
    static ProduceRequestData produce(String topic, ByteBuffer batch) {
        return produce(topic, batch, PARTITIONS, (short) 1);
    }

    /** A Produce request with {@code batch} for each of partitions 0 to {@code partitionCount} - 1. */
    static ProduceRequestData produce(String topic, ByteBuffer batch, int partitionCount, short acks) {
        List<ProduceRequestData.PartitionProduceData> partitions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new ProduceRequestData.PartitionProduceData().setIndex(p)
                    .setRecords(new ByteBufferRecords(batch.duplicate())));
        }
        List<ProduceRequestData.TopicProduceData> topics = new ArrayList<>();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(partitions));
        return new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000).setTopicData(topics);
    }

    /** The answer a broker gives to {@link #produce}. */
    static ProduceResponseData produceResponse(String topic) {
        List<ProduceResponseData.PartitionProduceResponse> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new ProduceResponseData.PartitionProduceResponse().setIndex(p).setBaseOffset(1_000_000L * p)
                    .setLogAppendTimeMs(-1).setLogStartOffset(0));
        }
        List<ProduceResponseData.TopicProduceResponse> topics = new ArrayList<>();
        topics.add(new ProduceResponseData.TopicProduceResponse().setName(topic).setPartitionResponses(partitions));
        return new ProduceResponseData().setResponses(topics);
    }

    /** A consumer's full Fetch request from {@code offset} on every partition, 1 MiB per partition. */
    static FetchRequestData fetch(Uuid topicId, long offset, int maxWaitMs) {
        List<FetchRequestData.FetchPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new FetchRequestData.FetchPartition().setPartition(p).setFetchOffset(offset)
                    .setPartitionMaxBytes(1024 * 1024).setCurrentLeaderEpoch(-1).setLastFetchedEpoch(-1)
                    .setLogStartOffset(-1));
        }
        List<FetchRequestData.FetchTopic> topics = new ArrayList<>();
        topics.add(new FetchRequestData.FetchTopic().setTopicId(topicId).setPartitions(partitions));
        return new FetchRequestData().setReplicaId(-1).setMaxWaitMs(maxWaitMs).setMinBytes(1)
                .setMaxBytes(50 * 1024 * 1024).setIsolationLevel((byte) 0).setSessionId(0).setSessionEpoch(-1)
                .setTopics(topics);
    }

    /** A Fetch answer carrying {@code batch} for every partition (records held in memory). */
    static FetchResponseData fetchResponse(Uuid topicId, ByteBuffer batch) {
        List<FetchResponseData.PartitionData> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new FetchResponseData.PartitionData().setPartitionIndex(p).setHighWatermark(1000)
                    .setLastStableOffset(1000).setLogStartOffset(0).setRecords(new ByteBufferRecords(batch.duplicate())));
        }
        List<FetchResponseData.FetchableTopicResponse> topics = new ArrayList<>();
        topics.add(new FetchResponseData.FetchableTopicResponse().setTopicId(topicId).setPartitions(partitions));
        return new FetchResponseData().setResponses(topics);
    }
}
