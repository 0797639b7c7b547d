package dev.spool.it;

import static dev.spool.it.TopicsDescribeTool.awaitDescribed;
import static dev.spool.it.TopicsDescribeTool.described;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The seed lesson's cluster (issue 19): three combined nodes, a topic of 3 partitions x 3 replicas with
 * min.insync.replicas 2, and what {@code kafka-topics --describe} and an acks=all producer
 * print while two followers stop (SIGTERM) and come back, each step checked against what Kafka 4.4 printed for the
 * same steps on the same layout (3 combined nodes, replica.lag.time.max.ms 10000, broker.session.timeout.ms 6000):
 * <ol>
 *   <li>created: each partition led by its first replica, the ISR its replicas in their order, no ELR;</li>
 *   <li>a follower A stops: it leaves every ISR (the others keep their order), the partition it led is led by
 *       the next replica; the ISR stays at min ISR, so nothing is eligible;</li>
 *   <li>a second follower B stops: the remaining node C leads all, ISR {@code C}, ELR {@code B} (it left below
 *       min ISR, holding every committed record), no last known ELR; acks=all is refused with
 *       NOT_ENOUGH_REPLICAS, and with two of three voters gone the quorum has no leader, yet describe answers;</li>
 *   <li>B back, then A back: each rejoins the ISR, listed in ascending id order ("Isr: 1,3", then "1,2,3"), the
 *       ELR empty once the ISR is back at min ISR; C keeps leading.</li>
 * </ol>
 * C is the active controller, so that the controlled shutdowns are committed while two voters remain.
 */
class SeedLessonClusterIT {

    private static final String TOPIC = "lesson";
    private static final String NOT_ENOUGH_REPLICAS =
            "Messages are rejected since there are fewer in-sync replicas than required.";

    @Test
    void describeShowsIsrAndElrAsKafkaWhileTwoFollowersStopAndComeBack() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "replica.lag.time.max.ms=10000",
                "broker.session.timeout.ms=6000", "broker.heartbeat.interval.ms=1000")) {
            String bootstrap = cluster.bootstrap();
            ExternalCommand.Result created = KafkaTool.run(TopicsDescribeTool.MAIN_CLASS, "--bootstrap-server",
                    bootstrap, "--create", "--topic", TOPIC, "--partitions", "3", "--replication-factor", "3",
                    "--config", "min.insync.replicas=2");
            assertThat(created.exitCode()).as(created.output()).isZero();
            Map<Integer, List<Integer>> replicas = new TreeMap<>();
            described(bootstrap, TOPIC).forEach((partition, columns) -> replicas.put(partition, ids(columns.get(1))));
            awaitDescribed(bootstrap, TOPIC, expected(replicas, List.of(), null), "every replica in sync");
            produce(bootstrap, "before");

            int controller = MetadataQuorumTool.leaderOf(KafkaTool.run(MetadataQuorumTool.MAIN_CLASS,
                    "--bootstrap-server", bootstrap, "describe", "--status").output());
            List<Integer> followers = new ArrayList<>(List.of(1, 2, 3));
            followers.remove(Integer.valueOf(controller));
            int first = followers.get(0);
            int second = followers.get(1);

            cluster.node(first).stop();
            awaitDescribed(cluster.bootstrap(), TOPIC, expected(replicas, List.of(first), null),
                    "broker " + first + " out of every ISR, the ISR at min ISR: no ELR");

            cluster.node(second).stop();
            Map<Integer, List<String>> belowMinIsr = new TreeMap<>();
            replicas.forEach((partition, assigned) -> belowMinIsr.put(partition, List.of(Integer.toString(controller),
                    join(assigned), Integer.toString(controller), Integer.toString(second), "")));
            awaitDescribed(cluster.bootstrap(), TOPIC, belowMinIsr,
                    "broker " + controller + " alone in the ISR, broker " + second + " eligible");
            assertThatThrownBy(() -> produce(cluster.bootstrap(), "below-min-isr"))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NotEnoughReplicasException.class)
                    .as("no message from the broker, as Kafka's: the client's own text").hasMessage(NOT_ENOUGH_REPLICAS);
            assertThat(described(cluster.bootstrap(), TOPIC))
                    .as("described by the node left, whose quorum lost its majority").isEqualTo(belowMinIsr);

            cluster.restart(second);
            awaitDescribed(cluster.bootstrap(), TOPIC, expected(replicas, List.of(first), controller),
                    "broker " + second + " back in every ISR, after broker " + controller);
            cluster.restart(first);
            awaitDescribed(cluster.bootstrap(), TOPIC, expected(replicas, List.of(), controller),
                    "broker " + first + " back: every ISR whole, in ascending id order");
        }
    }

    /**
     * What Kafka printed of each partition with the brokers {@code stopped} out: led by the first replica still in
     * sync, the ISR in replica order, while only controlled shutdowns took replicas out; led by {@code leader} (not
     * null) with the ISR in ascending id order once that leader has added replicas back. No ELR either way.
     */
    private static Map<Integer, List<String>> expected(Map<Integer, List<Integer>> replicas, List<Integer> stopped,
                                                       Integer leader) {
        Map<Integer, List<String>> expected = new TreeMap<>();
        replicas.forEach((partition, assigned) -> {
            List<Integer> isr = new ArrayList<>(assigned);
            isr.removeAll(stopped);
            if (leader != null) {
                isr.sort(null);
            }
            String leading = Integer.toString(leader != null ? leader : isr.get(0));
            expected.put(partition, List.of(leading, join(assigned), join(isr), "", ""));
        });
        return expected;
    }

    private static List<Integer> ids(String printed) {
        return Arrays.stream(printed.split(",")).map(Integer::valueOf).toList();
    }

    private static String join(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /**
     * Sends one record with acks=all, no idempotence and no retries (the refusal reaches the test as the broker
     * gave it: the client takes the broker's error message, if it sent one, as the exception's).
     */
    private static void produce(String bootstrap, String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "acks", "all", "enable.idempotence", "false", "retries", "0", "delivery.timeout.ms", "20000",
                "request.timeout.ms", "10000", "linger.ms", "0"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, value)).get(30, TimeUnit.SECONDS);
        }
    }
}
