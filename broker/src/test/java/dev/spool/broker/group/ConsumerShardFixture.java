package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A shard's surroundings for consumer-group tests: the topics its groups find (a map the test changes as topics come
 * and go), a manual timer and an in-memory log that outlives each shard loaded from it (a restart). Not thread-safe.
 */
final class ConsumerShardFixture {

    final Map<String, TopicImage> topics = new HashMap<>();
    final ManualTimer timer = new ManualTimer();
    final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();

    /** A shard replaying the log, as a coordinator loading the partition does. */
    GroupCoordinatorShard load(GroupSettings settings) throws Exception {
        // A new collection each time: the regular expressions see a changed topic set as a new metadata image.
        GroupCoordinatorShard shard = new GroupCoordinatorShard(0, log, timer, timer::nowMs, settings, topics::get,
                () -> List.copyOf(topics.values()));
        shard.load();
        return shard;
    }
}
