package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.LogPartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Records what each rebalance hands a group's member (called on the polling thread, inside poll), so that the checker
 * forgives the jump to the group's committed offsets.
 */
final class RebalanceRecorder implements ConsumerRebalanceListener {

    private final ClientHistory client;

    RebalanceRecorder(ClientHistory client) {
        this.client = client;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        // What is revoked needs no record: the next rebalance event resets the member's positions.
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        List<LogPartition> assigned = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            assigned.add(new LogPartition(partition.topic(), partition.partition()));
        }
        client.rebalanced(assigned);
    }
}
