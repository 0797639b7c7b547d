package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.EventType;
import dev.spool.it.history.HistoryEvent;
import dev.spool.it.history.HistoryWriter;
import dev.spool.it.history.LogPartition;
import dev.spool.it.history.Operation;
import dev.spool.it.history.PartitionOffset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Thread-safe (its own thread polls; {@link #committed} and {@link #stop} from any): one member of a consumer group
 * subscribed to a topic, committing its positions synchronously after each poll that moved them. It records the
 * subscribe, each rebalance's assignment (so the checker forgives the jump to the committed offsets), each poll, and
 * each commit: ok once the coordinator accepted it, fail when it refused it (the group moved on: CommitFailedException,
 * a rebalance in progress), info when nobody knows (a timeout, a lost coordinator). A dead instance is replaced under
 * a new process name and rejoins the group.
 */
final class GroupMember {

    private final String name;
    private final String groupId;
    private final Supplier<String> bootstrap;
    private final HistoryWriter history;
    private final String topic;
    private final Map<Integer, Long> committed = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    GroupMember(String name, String groupId, Supplier<String> bootstrap, HistoryWriter history, String topic) {
        this.name = name;
        this.groupId = groupId;
        this.bootstrap = bootstrap;
        this.history = history;
        this.topic = topic;
        this.thread = new Thread(this::run, "group-member-" + name);
    }

    void start() {
        thread.start();
    }

    /** Per partition, the last offset this member committed with an ok answer. */
    Map<Integer, Long> committed() {
        return Map.copyOf(committed);
    }

    private void run() {
        while (running) {
            ClientHistory client = history.client(name + "-" + generations.incrementAndGet());
            Map<String, Object> configuration = RecordedPoll.configuration(bootstrap.get(), groupId);
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configuration, new StringDeserializer(),
                    new StringDeserializer())) {
                client.opened(configuration);
                consumer.subscribe(List.of(topic), new RebalanceRecorder(client));
                client.subscribed(List.of(topic));
                while (running) {
                    RecordedPoll.Outcome outcome = RecordedPoll.poll(consumer, client);
                    if (outcome.fatal() != null) {
                        break;
                    }
                    if (!commit(consumer, client)) {
                        break;
                    }
                }
                consumer.close(Duration.ofSeconds(5));
            }
        }
    }

    /**
     * Commits the consumer's positions where they moved past this member's last commit (past records it read, or past
     * a transaction marker, which no record stands for); true when nothing moved. False when the client instance died.
     */
    private boolean commit(KafkaConsumer<String, String> consumer, ClientHistory client) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        RecordedPoll.positions(consumer).forEach((partition, position) -> {
            if (position > committed.getOrDefault(partition, 0L)) {
                offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(position));
            }
        });
        if (offsets.isEmpty()) {
            return true;
        }
        List<PartitionOffset> positions = new ArrayList<>();
        offsets.forEach((partition, offset) -> positions.add(new PartitionOffset(
                new LogPartition(partition.topic(), partition.partition()), offset.offset())));
        HistoryEvent invoke = client.event(EventType.INVOKE, Operation.COMMIT).withOffsets(positions);
        client.record(invoke);
        try {
            consumer.commitSync(offsets);
            client.record(client.event(EventType.OK, Operation.COMMIT).withOffsets(positions));
            offsets.forEach((partition, offset) -> committed.merge(partition.partition(), offset.offset(), Math::max));
            return true;
        } catch (CommitFailedException | RebalanceInProgressException refused) {
            client.record(client.event(EventType.FAIL, Operation.COMMIT).withOffsets(positions)
                    .withError(String.valueOf(refused)));
            return true;
        } catch (KafkaException unknown) {
            client.record(client.event(EventType.INFO, Operation.COMMIT).withOffsets(positions)
                    .withError(String.valueOf(unknown)));
            return unknown instanceof RetriableException;
        }
    }

    void stop() throws InterruptedException {
        running = false;
        WorkerThreads.awaitEnd(thread, 60, "group member " + name);
    }
}
