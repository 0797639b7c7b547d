package dev.spool.broker.metadata;

import dev.spool.protocol.types.Uuid;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/** One topic: its name, its id and its partitions by index. Immutable. */
public record TopicImage(String name, Uuid id, SortedMap<Integer, PartitionImage> partitions) {

    public TopicImage {
        partitions = Collections.unmodifiableSortedMap(new TreeMap<>(partitions));
    }

    public PartitionImage partition(int index) {
        return partitions.get(index);
    }

    /** One of Kafka's {@link InternalTopics}. */
    public boolean isInternal() {
        return InternalTopics.isInternal(name);
    }
}
