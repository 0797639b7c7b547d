package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Scrapes the Prometheus endpoint ({@code metrics.listener}) of a broker started with bin/spool while
 * a Java producer and a consumer group work: the traffic counters move by what was produced and
 * fetched, the partition gauges follow the log, and the group's lag is what it has not consumed.
 */
class MetricsIT {

    private static final int FIRST = 40;
    private static final int SECOND = 15;


    @Test
    void countersMoveDuringAProduceConsumeRunAndGroupLagIsRight() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("metrics.listener=127.0.0.1:0",
                "group.initial.rebalance.delay.ms=0");
             Admin admin = Admin.create(Map.of("bootstrap.servers", spool.bootstrap()))) {
            PrometheusEndpoint endpoint = PrometheusEndpoint.of(spool);
            admin.createTopics(List.of(new NewTopic("metered", Optional.of(2), Optional.empty()))).all()
                    .get(30, TimeUnit.SECONDS);
            Map<String, Double> before = endpoint.scrape();
            assertThat(before).containsEntry("kafka_server_replicamanager_under_replicated_partitions", 0.0)
                    .containsKey("jvm_memory_used_bytes{area=\"heap\"}")
                    .containsKey("kafka_log_logcleaner_cleanings_total")
                    .doesNotContainKey("kafka_server_brokertopicmetrics_messages_in_total{topic=\"metered\"}");

            try (KafkaProducer<String, String> producer = producer(spool)) {
                produce(producer, 0, FIRST);
                try (KafkaConsumer<String, String> consumer = consumer(spool)) {
                    consumer.subscribe(List.of("metered"));
                    int consumed = 0;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (consumed < FIRST && System.nanoTime() < deadline) {
                        consumed += consumer.poll(Duration.ofMillis(200)).count();
                    }
                    assertThat(consumed).isEqualTo(FIRST);
                    consumer.commitSync();
                    produce(producer, FIRST, SECOND);

                    Map<String, Double> during = endpoint.scrape();
                    assertThat(during.get("kafka_server_socket_server_metrics_connection_count")).isGreaterThanOrEqualTo(3.0);
                    assertThat(during.get("kafka_server_brokertopicmetrics_messages_in_total{topic=\"metered\"}"))
                            .isEqualTo(FIRST + SECOND);
                    assertThat(during.get("kafka_server_brokertopicmetrics_bytes_in_total{topic=\"metered\"}"))
                            .isGreaterThan(FIRST * 20.0);
                    assertThat(during.get("kafka_server_brokertopicmetrics_bytes_out_total{topic=\"metered\"}"))
                            .isGreaterThan(FIRST * 20.0);
                    assertThat(during.get("kafka_network_requestmetrics_requests_total{request=\"Produce\"}"))
                            .isBetween(2.0, (double) FIRST + SECOND);
                    assertThat(during.get("kafka_network_requestmetrics_total_time_seconds_count{request=\"Fetch\"}"))
                            .isPositive();
                    assertThat(during.get("kafka_network_requestmetrics_requests_total{request=\"JoinGroup\"}"))
                            .isPositive();
                    assertThat(sum(during, "kafka_log_log_log_end_offset{", "topic=\"metered\""))
                            .isEqualTo(FIRST + SECOND);
                    assertThat(sum(during, "kafka_log_log_size_bytes{", "topic=\"metered\"")).isPositive();
                    assertThat(sum(during, "kafka_log_log_num_log_segments{", "topic=\"metered\"")).isEqualTo(2.0);
                    assertThat(sum(during, "kafka_consumergroup_current_offset{", "consumergroup=\"billing\""))
                            .isEqualTo(FIRST);
                    assertThat(sum(during, "kafka_consumergroup_lag{", "consumergroup=\"billing\"")).isEqualTo(SECOND);
                }
            }
            double adminConnections = before.get("kafka_server_socket_server_metrics_connection_count");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (endpoint.scrape().get("kafka_server_socket_server_metrics_connection_count") > adminConnections
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(endpoint.scrape().get("kafka_server_socket_server_metrics_connection_count"))
                    .as("only the admin client's connections are left").isEqualTo(adminConnections);
        }
    }

    private static void produce(KafkaProducer<String, String> producer, int from, int count) throws Exception {
        for (int i = from; i < from + count; i++) {
            producer.send(new ProducerRecord<>("metered", "key-" + i, "value-" + i + "-".repeat(20)));
        }
        producer.flush();
    }

    private static KafkaProducer<String, String> producer(SpoolProcess spool) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", spool.bootstrap(), "linger.ms", 0, "batch.size", 1,
                "key.serializer", StringSerializer.class, "value.serializer", StringSerializer.class));
    }

    private static KafkaConsumer<String, String> consumer(SpoolProcess spool) {
        return new KafkaConsumer<>(Map.of("bootstrap.servers", spool.bootstrap(), "group.id", "billing",
                "auto.offset.reset", "earliest", "enable.auto.commit", false,
                "key.deserializer", StringDeserializer.class, "value.deserializer", StringDeserializer.class));
    }

    private static double sum(Map<String, Double> samples, String prefix, String label) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().contains(label))
                .mapToDouble(Map.Entry::getValue).sum();
    }
}
