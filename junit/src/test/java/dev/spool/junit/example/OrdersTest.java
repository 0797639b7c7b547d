package dev.spool.junit.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.junit.SpoolExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's example: a test that needs a Kafka broker gets an embedded Spool. */
class OrdersTest {

    @RegisterExtension
    static final SpoolExtension spool = SpoolExtension.create();

    @Test
    void consumerGroupReadsWhatTheProducerWrote() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers", spool.bootstrapServers(),
                "key.serializer", StringSerializer.class,
                "value.serializer", StringSerializer.class))) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>("orders", "order-" + i, "created")).get();
            }
        }

        List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers", spool.bootstrapServers(),
                "group.id", "billing",
                "auto.offset.reset", "earliest",
                "key.deserializer", StringDeserializer.class,
                "value.deserializer", StringDeserializer.class))) {
            consumer.subscribe(List.of("orders"));
            long deadline = System.currentTimeMillis() + 30_000;
            while (keys.size() < 3 && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    keys.add(record.key());
                }
            }
            consumer.commitSync();
        }

        assertThat(keys).containsExactly("order-0", "order-1", "order-2");
    }
}
