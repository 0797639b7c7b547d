package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.HistoryWriter;
import dev.spool.it.history.LogPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Thread-safe (its own thread polls; {@link #nextOffsets} and {@link #stop} from any): a consumer with every
 * partition of a topic assigned by hand, reading from the start, recording each poll. When its instance dies it is
 * replaced under a new process name, which reads from the start again.
 */
final class AssignedReader {

    private final String name;
    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String topic;
    private final int partitions;
    private final Map<Integer, Long> nextOffsets = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    AssignedReader(String name, Supplier<String> bootstrap, HistoryWriter history, String topic, int partitions) {
        this.name = name;
        this.bootstrap = bootstrap;
        this.history = history;
        this.topic = topic;
        this.partitions = partitions;
        this.thread = new Thread(this::run, "assigned-reader-" + name);
    }

    void start() {
        thread.start();
    }

    /** Per partition, the offset after the last record the current instance read. */
    Map<Integer, Long> nextOffsets() {
        return Map.copyOf(nextOffsets);
    }

    private void run() {
        while (running) {
            ClientHistory client = history.client(name + "-" + generations.incrementAndGet());
            Map<String, Object> configuration = RecordedPoll.configuration(bootstrap.get(), null);
            nextOffsets.clear();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configuration, new StringDeserializer(),
                    new StringDeserializer())) {
                client.opened(configuration);
                List<TopicPartition> assignment = new ArrayList<>();
                List<LogPartition> assigned = new ArrayList<>();
                for (int partition = 0; partition < partitions; partition++) {
                    assignment.add(new TopicPartition(topic, partition));
                    assigned.add(new LogPartition(topic, partition));
                }
                consumer.assign(assignment);
                client.assigned(assigned);
                while (running) {
                    RecordedPoll.Outcome outcome = RecordedPoll.poll(consumer, client);
                    RecordedPoll.positions(consumer).forEach((partition, next) ->
                            nextOffsets.merge(partition, next, Math::max));
                    if (outcome.fatal() != null) {
                        break;
                    }
                }
                consumer.close(Duration.ofSeconds(5));
            }
        }
    }

    void stop() throws InterruptedException {
        running = false;
        WorkerThreads.awaitEnd(thread, 60, "reader " + name);
    }
}
