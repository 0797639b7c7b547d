package dev.spool.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.List;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A group member in its own JVM, so a test can kill it with SIGKILL (no LeaveGroup, no goodbye):
 * {@code GroupMemberMain BOOTSTRAP TOPIC GROUP ASSIGNOR_CLASS}, or {@code consumer} for KIP-848's protocol. Subscribes,
 * polls, prints {@code READ v,w,...} (the values a poll returned), commits synchronously and prints {@code COMMITTED}
 * (or {@code COMMIT FAILED}), and prints {@code ASSIGNMENT p,q,...} whenever its partitions change. Exits when its
 * standard input closes (the test JVM went away).
 */
public final class GroupMemberMain {

    static final int SESSION_TIMEOUT_MS = 3000;
    /** In place of an assignor class: the member uses the consumer group protocol (group.protocol=consumer). */
    static final String CONSUMER_PROTOCOL = "consumer";

    private GroupMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[2]);
        if (args[3].equals(CONSUMER_PROTOCOL)) {
            // KIP-848: the coordinator assigns and sets the session and heartbeat timings.
            props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, CONSUMER_PROTOCOL);
        } else {
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, args[3]);
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(SESSION_TIMEOUT_MS));
            props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "300");
        }
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Nothing is sent on stdin; EOF means the parent is gone.
                }
            } catch (java.io.IOException e) {
                System.err.println("stdin failed: " + e);
            }
            Runtime.getRuntime().halt(0);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[1]));
            Set<Integer> last = null;
            while (true) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                if (!records.isEmpty()) {
                    List<String> values = new ArrayList<>();
                    records.forEach(record -> values.add(record.value()));
                    System.out.println("READ " + String.join(",", values));
                    try {
                        consumer.commitSync();
                        System.out.println("COMMITTED");
                    } catch (CommitFailedException | RebalanceInProgressException e) {
                        // The group moved on first: these records go to the partitions' next owners too.
                        System.out.println("COMMIT FAILED " + e);
                    }
                    System.out.flush();
                }
                Set<Integer> now = new TreeSet<>();
                for (TopicPartition partition : consumer.assignment()) {
                    now.add(partition.partition());
                }
                if (!now.equals(last)) {
                    System.out.println("ASSIGNMENT " + String.join(",", now.stream().map(String::valueOf).toList()));
                    System.out.flush();
                    last = now;
                }
            }
        }
    }
}
