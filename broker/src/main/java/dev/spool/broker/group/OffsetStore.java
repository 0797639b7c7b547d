package dev.spool.broker.group;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The committed offsets of one coordinator shard, by group, topic and partition (topics and
 * partitions sorted, so OffsetFetch of all partitions answers in a stable order). Changed only by
 * applying {@code __consumer_offsets} records. Not thread-safe: owned by the coordinator thread.
 */
final class OffsetStore {

    private final Map<String, Map<String, TreeMap<Integer, CommittedOffset>>> groups = new HashMap<>();

    CommittedOffset get(String groupId, String topic, int partition) {
        Map<String, TreeMap<Integer, CommittedOffset>> topics = groups.get(groupId);
        TreeMap<Integer, CommittedOffset> partitions = topics == null ? null : topics.get(topic);
        return partitions == null ? null : partitions.get(partition);
    }

    void put(String groupId, String topic, int partition, CommittedOffset offset) {
        groups.computeIfAbsent(groupId, id -> new TreeMap<>())
                .computeIfAbsent(topic, name -> new TreeMap<>())
                .put(partition, offset);
    }

    void remove(String groupId, String topic, int partition) {
        Map<String, TreeMap<Integer, CommittedOffset>> topics = groups.get(groupId);
        if (topics == null) {
            return;
        }
        TreeMap<Integer, CommittedOffset> partitions = topics.get(topic);
        if (partitions != null) {
            partitions.remove(partition);
            if (partitions.isEmpty()) {
                topics.remove(topic);
            }
        }
        if (topics.isEmpty()) {
            groups.remove(groupId);
        }
    }

    /** The group's offsets by topic, then partition; empty if it has none. Read-only. */
    Map<String, TreeMap<Integer, CommittedOffset>> offsets(String groupId) {
        Map<String, TreeMap<Integer, CommittedOffset>> topics = groups.get(groupId);
        return topics == null ? Map.of() : Collections.unmodifiableMap(topics);
    }

    boolean hasOffsets(String groupId) {
        return groups.containsKey(groupId);
    }

    Set<String> groupIds() {
        return Collections.unmodifiableSet(groups.keySet());
    }

    int size() {
        int count = 0;
        for (Map<String, TreeMap<Integer, CommittedOffset>> topics : groups.values()) {
            for (TreeMap<Integer, CommittedOffset> partitions : topics.values()) {
                count += partitions.size();
            }
        }
        return count;
    }
}
