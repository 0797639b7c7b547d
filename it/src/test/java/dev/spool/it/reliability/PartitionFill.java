package dev.spool.it.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Records in every partition of a wide topic before a test's faults, in the form {@link LogAudit} checks. */
public final class PartitionFill {

    private PartitionFill() {
    }

    /**
     * Writes records {@code fill-P:0..N-1} (key {@code fill-P}) to every partition P of {@code topic}, acks=all;
     * returns the acknowledged numbers per key.
     */
    public static Map<String, NavigableSet<Long>> everyPartition(String bootstrap, String topic, int partitions,
                                                                 int recordsPerPartition) throws Exception {
        try (KafkaProducer<String, String> fill = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5), new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int n = 0; n < recordsPerPartition; n++) {
                for (int p = 0; p < partitions; p++) {
                    sends.add(fill.send(new ProducerRecord<>(topic, p, "fill-" + p, "fill-" + p + ":" + n)));
                }
            }
            for (Future<RecordMetadata> send : sends) {
                send.get(60, TimeUnit.SECONDS);
            }
        }
        Map<String, NavigableSet<Long>> acked = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            NavigableSet<Long> numbers = new TreeSet<>();
            for (long n = 0; n < recordsPerPartition; n++) {
                numbers.add(n);
            }
            acked.put("fill-" + p, numbers);
        }
        return acked;
    }
}
