package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** What the TLS and SASL tests do with client settings and command lines. Stateless. */
final class SecureClients {

    private SecureClients() {
    }

    /** {@code settings} with more key, value pairs. */
    static Map<String, Object> with(Map<String, Object> settings, Object... more) {
        Map<String, Object> all = new HashMap<>(settings);
        for (int i = 0; i < more.length; i += 2) {
            all.put((String) more[i], more[i + 1]);
        }
        return all;
    }

    /**
     * A client of the SASL_PLAINTEXT listener at {@code port} logging in with PLAIN as {@code user}, whose password
     * is {@code <user>-secret} (the ACL tests' users).
     */
    static Map<String, Object> plainSaslUser(int port, String user) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        settings.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"" + user + "\" password=\"" + user + "-secret\";");
        settings.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 15000);
        settings.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 15000);
        return settings;
    }

    /** Null when an admin client with {@code settings} gets DescribeCluster answered, else the cause it failed with. */
    static Throwable describeClusterFailure(Map<String, Object> settings) {
        return describeClusterFailure(settings, 15_000);
    }

    /** As {@link #describeClusterFailure(Map)}, giving up after {@code apiTimeoutMs}: for a refusal that is certain. */
    static Throwable describeClusterFailure(Map<String, Object> settings, int apiTimeoutMs) {
        try (Admin admin = Admin.create(with(settings, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, apiTimeoutMs,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(10_000, apiTimeoutMs * 2 / 3)))) {
            Throwable failure = catchThrowable(() -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS));
            return failure == null || failure.getCause() == null ? failure : failure.getCause();
        }
    }

    static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /**
     * Creates {@code topic} (two partitions), produces 200 records with acks=all and reads them all back in a
     * group, committing: the round trip a client with {@code client}'s settings makes.
     */
    static void roundTrip(Map<String, Object> client, String topic) throws Exception {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        produceAndConsume(client, client, topic, topic + "-group");
    }

    /**
     * Produces 200 records to {@code topic} with acks=all as {@code producerClient}, and reads them all back in
     * {@code group} as {@code consumerClient}, committing.
     */
    static void produceAndConsume(Map<String, Object> producerClient, Map<String, Object> consumerClient,
                                  String topic, String group) throws Exception {
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                with(producerClient, ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 200; i++) {
                sent.add("value " + i);
                producer.send(new ProducerRecord<>(topic, "key " + i, "value " + i));
            }
            producer.flush();
        }
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(with(consumerClient,
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (read.size() < sent.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    read.add(record.value());
                }
            }
            consumer.commitSync();
        }
        assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    }
}
