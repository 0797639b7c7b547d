package dev.spool.it.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Thread-safe (holds nothing between calls): who leads what, as a cluster answers Kafka's Admin client, asked
 * with short timeouts and a fresh client each time, so a fault schedule is never held up by a node that is paused,
 * cut off or gone, and a client's stale connections never outlive a fault. Answers -1 when it cannot tell in time.
 */
public final class ClusterView {

    private static final int REQUEST_TIMEOUT_MS = 3_000;
    private static final int ANSWER_TIMEOUT_MS = 6_000;

    private ClusterView() {
    }

    /** The leader of {@code topic}'s partition {@code partition} in the metadata of the node that answers; -1 if none. */
    public static int leaderOf(String bootstrap, String topic, int partition) throws InterruptedException {
        Admin admin = admin(bootstrap);
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
            return description.partitions().stream().filter(info -> info.partition() == partition)
                    .map(TopicPartitionInfo::leader).filter(leader -> leader != null && !leader.isEmpty())
                    .mapToInt(Node::id).findFirst().orElse(-1);
        } catch (ExecutionException | TimeoutException cannotTell) {
            return -1; // no node answered in time, or the topic is unknown there: no leader to aim at
        } finally {
            closeFast(admin);
        }
    }

    /** The metadata quorum's leader as the active controller (reached through any node) describes it; -1 if unknown. */
    public static int quorumLeader(String bootstrap) throws InterruptedException {
        Admin admin = admin(bootstrap);
        try {
            return admin.describeMetadataQuorum().quorumInfo().get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS).leaderId();
        } catch (ExecutionException | TimeoutException cannotTell) {
            return -1; // no quorum leader reachable in time
        } finally {
            closeFast(admin);
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ANSWER_TIMEOUT_MS,
                AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, 1_000,
                AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, 2_000,
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 100));
    }

    /** Closes without waiting for requests still in flight (to a paused node, say): their answers no longer matter. */
    private static void closeFast(Admin admin) {
        admin.close(Duration.ZERO);
    }
}
