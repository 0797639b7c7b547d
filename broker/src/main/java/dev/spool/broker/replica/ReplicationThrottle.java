package dev.spool.broker.replica;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.BrokerConfigLayers;
import dev.spool.broker.config.ConfigKey;
import dev.spool.broker.fetch.FollowerReadThrottle;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.log.LogConfigKey;
import dev.spool.log.ThrottledReplicas;
import dev.spool.log.TopicPartition;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One side of Kafka's replication throttle, as {@code kafka-reassign-partitions --throttle} sets it: the leader's
 * ({@code leader.replication.throttled.rate} over the replicas its topics name in
 * {@code leader.replication.throttled.replicas}) or the follower's ({@code follower.*}). The bytes of every
 * replica it names count, but it holds back only one out of sync (a reassignment's new replica catching up, a
 * follower back from a crash), never an in-sync one, as in Kafka. Its bytes are measured over the last {@value #WINDOWS} one-second windows (Kafka's
 * {@code replication.quota.window.num}), over at least {@value #WINDOWS} - 1 seconds, as Kafka measures a rate;
 * while above the rate, the leader sends such a follower no records and the follower leaves such partitions out of
 * its fetches. The rate and the replicas are read from the image each time, so a change applies at once.
 * Thread-safe.
 */
public final class ReplicationThrottle implements FollowerReadThrottle {

    private static final int WINDOWS = 11;
    private static final long WINDOW_MS = 1000;

    private final int nodeId;
    private final Supplier<MetadataImage> image;
    private final BrokerConfigLayers layers;
    private final ConfigKey<Long> rate;
    private final String replicasConfig;
    private final LongSupplier clockMs;
    /** Bytes per window, by window number modulo WINDOWS; guarded by this. */
    private final long[] bytes = new long[WINDOWS];
    private final long[] windowOf = new long[WINDOWS];
    private long firstWindow = -1;

    private ReplicationThrottle(int nodeId, Supplier<MetadataImage> image, BrokerConfigLayers layers,
                                ConfigKey<Long> rate, LogConfigKey replicas, LongSupplier clockMs) {
        this.nodeId = nodeId;
        this.image = image;
        this.layers = layers;
        this.rate = rate;
        this.replicasConfig = replicas.configName;
        this.clockMs = clockMs;
    }

    /** The leader's throttle of this broker. */
    public static ReplicationThrottle leader(Supplier<MetadataImage> image, BrokerConfigLayers layers,
                                             LongSupplier clockMs) {
        return new ReplicationThrottle(layers.nodeId(), image, layers, BrokerConfig.LEADER_REPLICATION_THROTTLED_RATE,
                LogConfigKey.LEADER_REPLICATION_THROTTLED_REPLICAS, clockMs);
    }

    /** The follower's throttle of this broker. */
    public static ReplicationThrottle follower(Supplier<MetadataImage> image, BrokerConfigLayers layers,
                                               LongSupplier clockMs) {
        return new ReplicationThrottle(layers.nodeId(), image, layers,
                BrokerConfig.FOLLOWER_REPLICATION_THROTTLED_RATE,
                LogConfigKey.FOLLOWER_REPLICATION_THROTTLED_REPLICAS, clockMs);
    }

    /** Whether the topic of {@code topicPartition} names this broker's replica of it. */
    @Override
    public boolean names(TopicPartition topicPartition) {
        String replicas = image.get().configs(ConfigResource.topic(topicPartition.topic())).get(replicasConfig);
        return ThrottledReplicas.names(replicas, topicPartition.partition(), nodeId);
    }

    /** Whether the bytes of the last windows are above the rate in force. */
    @Override
    public synchronized boolean exceeded() {
        long limit = layers.dynamic(image.get(), rate);
        if (limit == Long.MAX_VALUE || firstWindow < 0) {
            return false;
        }
        long nowMs = clockMs.getAsLong();
        long window = nowMs / WINDOW_MS;
        long total = 0;
        for (int i = 0; i < WINDOWS; i++) {
            if (window - windowOf[i] < WINDOWS) {
                total += bytes[i];
            }
        }
        long oldest = Math.max(firstWindow, window - WINDOWS + 1);
        long spanMs = Math.max(nowMs - oldest * WINDOW_MS, (WINDOWS - 1) * WINDOW_MS);
        return total * 1000.0 / spanMs > limit;
    }

    /** Counts {@code count} bytes sent or fetched for replicas this throttle concerns. */
    @Override
    public synchronized void record(long count) {
        long window = clockMs.getAsLong() / WINDOW_MS;
        int slot = (int) (window % WINDOWS);
        if (windowOf[slot] != window) {
            windowOf[slot] = window;
            bytes[slot] = 0;
        }
        bytes[slot] += count;
        if (firstWindow < 0) {
            firstWindow = window;
        }
    }
}
