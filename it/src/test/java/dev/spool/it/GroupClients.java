package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The Java clients the group tests use, configured for a quick test run. Thread-safe (stateless). */
final class GroupClients {

    private GroupClients() {
    }

    static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(props);
    }

    /**
     * A group consumer with manual commits, starting from {@code autoOffsetReset} without a committed
     * offset; {@code extraConfig} are further name, value pairs (a null value removes the setting).
     */
    static KafkaConsumer<String, String> consumer(String bootstrap, String group, String autoOffsetReset,
                                                  String... extraConfig) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-client");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, autoOffsetReset);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        for (int i = 0; i + 1 < extraConfig.length; i += 2) {
            if (extraConfig[i + 1] == null) {
                props.remove(extraConfig[i]); // e.g. the classic protocol's timeouts, refused with group.protocol=consumer
            } else {
                props.put(extraConfig[i], extraConfig[i + 1]);
            }
        }
        return new KafkaConsumer<>(props);
    }

    /** Sends {@code count} records "prefix-i" (keyed by i) and waits for them; their metadata in send order. */
    static List<RecordMetadata> produce(String bootstrap, String topic, String prefix, int count) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, prefix + "-key-" + i, prefix + "-" + i)));
            }
            List<RecordMetadata> metadata = new ArrayList<>();
            for (Future<RecordMetadata> future : sent) {
                metadata.add(future.get());
            }
            return metadata;
        }
    }

    /** The group's committed offsets by partition index of {@code topic}. */
    static Map<Integer, Long> committed(Admin admin, String group, String topic) throws Exception {
        Map<Integer, Long> offsets = new HashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry
                : admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
            if (entry.getKey().topic().equals(topic) && entry.getValue() != null) {
                offsets.put(entry.getKey().partition(), entry.getValue().offset());
            }
        }
        return offsets;
    }

    /** Fails if two of the members own one partition (their assignments as each last saw them). */
    static void assertNoPartitionOwnedTwice(List<KafkaConsumer<String, String>> members) {
        Set<TopicPartition> owned = new HashSet<>();
        for (KafkaConsumer<String, String> member : members) {
            for (TopicPartition partition : member.assignment()) {
                assertThat(owned.add(partition)).as("%s owned by two members: %s", partition,
                        members.stream().map(KafkaConsumer::assignment).toList()).isTrue();
            }
        }
    }
}
