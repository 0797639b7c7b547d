package dev.spool.broker.metrics;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.ProduceRequestData;
import dev.spool.protocol.message.ProduceResponseData;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Records;
import dev.spool.protocol.types.Uuid;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Thread-safe: bytes in, messages in and bytes out per topic, as Kafka's BrokerTopicMetrics: counted from a
 * Produce request and its answer (only partitions answered without error count) and from a Fetch answer (the
 * record bytes sent). Counter data points are made once per topic and cached, so counting allocates nothing.
 */
final class TopicTrafficMetrics {

    /** The three counters of one topic. */
    private record TopicMeters(CounterDataPoint bytesIn, CounterDataPoint messagesIn, CounterDataPoint bytesOut) {
    }

    private final Counter bytesIn;
    private final Counter messagesIn;
    private final Counter bytesOut;
    private final Supplier<MetadataImage> image;
    private final ConcurrentHashMap<String, TopicMeters> byTopic = new ConcurrentHashMap<>();

    TopicTrafficMetrics(PrometheusRegistry registry, Supplier<MetadataImage> image) {
        this.image = image;
        this.bytesIn = Counter.builder().name("kafka_server_brokertopicmetrics_bytes_in")
                .help("Record bytes appended by Produce requests, per topic (Kafka's BytesInPerSec).")
                .labelNames("topic").withoutExemplars().register(registry);
        this.messagesIn = Counter.builder().name("kafka_server_brokertopicmetrics_messages_in")
                .help("Records appended by Produce requests, per topic (Kafka's MessagesInPerSec).")
                .labelNames("topic").withoutExemplars().register(registry);
        this.bytesOut = Counter.builder().name("kafka_server_brokertopicmetrics_bytes_out")
                .help("Record bytes sent in Fetch responses, per topic (Kafka's BytesOutPerSec).")
                .labelNames("topic").withoutExemplars().register(registry);
    }

    void onProduce(ProduceRequestData request, ProduceResponseData response) {
        List<ProduceRequestData.TopicProduceData> topics = request.topicData();
        for (int t = 0; t < topics.size(); t++) {
            ProduceRequestData.TopicProduceData topic = topics.get(t);
            ProduceResponseData.TopicProduceResponse answered = answeredTopic(response, t, topic);
            if (answered == null) {
                continue;
            }
            TopicMeters meters = null;
            List<ProduceRequestData.PartitionProduceData> partitions = topic.partitionData();
            for (int p = 0; p < partitions.size(); p++) {
                ProduceRequestData.PartitionProduceData partition = partitions.get(p);
                if (!succeeded(answered.partitionResponses(), p, partition.index()) || partition.records() == null) {
                    continue;
                }
                if (meters == null) {
                    meters = meters(topic.name(), topic.topicId());
                    if (meters == null) {
                        break;
                    }
                }
                Records records = partition.records();
                meters.bytesIn.inc(records.sizeInBytes());
                if (records instanceof ByteBufferRecords buffer) {
                    meters.messagesIn.inc(recordCount(buffer.buffer()));
                }
            }
        }
    }

    void onFetch(FetchResponseData response) {
        List<FetchResponseData.FetchableTopicResponse> topics = response.responses();
        for (int t = 0; t < topics.size(); t++) {
            FetchResponseData.FetchableTopicResponse topic = topics.get(t);
            long bytes = 0;
            List<FetchResponseData.PartitionData> partitions = topic.partitions();
            for (int p = 0; p < partitions.size(); p++) {
                Records records = partitions.get(p).records();
                if (records != null) {
                    bytes += records.sizeInBytes();
                }
            }
            if (bytes > 0) {
                TopicMeters meters = meters(topic.topic(), topic.topicId());
                if (meters != null) {
                    meters.bytesOut.inc(bytes);
                }
            }
        }
    }

    /** The answer for the request's topic number {@code index}: usually at the same place. */
    private static ProduceResponseData.TopicProduceResponse answeredTopic(ProduceResponseData response, int index,
                                                                          ProduceRequestData.TopicProduceData topic) {
        List<ProduceResponseData.TopicProduceResponse> answered = response.responses();
        if (index < answered.size() && sameTopic(answered.get(index), topic)) {
            return answered.get(index);
        }
        for (int i = 0; i < answered.size(); i++) {
            if (sameTopic(answered.get(i), topic)) {
                return answered.get(i);
            }
        }
        return null;
    }

    private static boolean sameTopic(ProduceResponseData.TopicProduceResponse answered,
                                     ProduceRequestData.TopicProduceData topic) {
        return answered.name().equals(topic.name()) && answered.topicId().equals(topic.topicId());
    }

    private static boolean succeeded(List<ProduceResponseData.PartitionProduceResponse> answered, int position,
                                     int partition) {
        if (position < answered.size() && answered.get(position).index() == partition) {
            return answered.get(position).errorCode() == Errors.NONE.code();
        }
        for (int i = 0; i < answered.size(); i++) {
            if (answered.get(i).index() == partition) {
                return answered.get(i).errorCode() == Errors.NONE.code();
            }
        }
        return false;
    }

    /** Records in the v2 batches of a produced records field, from their headers. */
    static long recordCount(ByteBuffer batches) {
        long count = 0;
        int position = batches.position();
        int limit = batches.limit();
        while (position + RecordBatchLayout.HEADER_SIZE_BYTES <= limit) {
            if (batches.get(position + RecordBatchLayout.MAGIC_OFFSET) == RecordBatchLayout.MAGIC_V2) {
                count += batches.getInt(position + RecordBatchLayout.RECORD_COUNT_OFFSET);
            }
            position += RecordBatchLayout.LOG_OVERHEAD_BYTES
                    + batches.getInt(position + RecordBatchLayout.BATCH_LENGTH_OFFSET);
        }
        return count;
    }

    /** The counters of a topic named by name or (Produce v13+, Fetch v13+) by id; null for an unknown id. */
    private TopicMeters meters(String name, Uuid id) {
        String topic = name;
        if (topic == null || topic.isEmpty()) {
            TopicImage known = image.get().topic(id);
            if (known == null) {
                return null;
            }
            topic = known.name();
        }
        TopicMeters meters = byTopic.get(topic);
        if (meters == null) {
            meters = new TopicMeters(bytesIn.labelValues(topic), messagesIn.labelValues(topic),
                    bytesOut.labelValues(topic));
            TopicMeters raced = byTopic.putIfAbsent(topic, meters);
            meters = raced != null ? raced : meters;
        }
        return meters;
    }

    /** Stops reporting a deleted topic. */
    void forget(String topic) {
        if (byTopic.remove(topic) != null) {
            bytesIn.remove(topic);
            messagesIn.remove(topic);
            bytesOut.remove(topic);
        }
    }
}
