package dev.spool.broker.group;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Partitions of a consumer group, by topic id and partition number: what a member owns, must revoke, or is given by
 * the target assignment. Topic ids, not names, so that a topic deleted and created again under its name is a
 * different topic, as in Kafka's records. Immutable.
 */
final class PartitionAssignment {

    static final PartitionAssignment EMPTY = new PartitionAssignment(Map.of());

    private final Map<Uuid, SortedSet<Integer>> partitions;

    private PartitionAssignment(Map<Uuid, SortedSet<Integer>> partitions) {
        this.partitions = partitions;
    }

    /** The partitions of {@code entries}, each a topic id and its partition numbers; topics without any are left out. */
    static <T> PartitionAssignment of(List<T> entries, Function<T, Uuid> topicId,
                                      Function<T, List<Integer>> numbers) {
        Map<Uuid, SortedSet<Integer>> partitions = new TreeMap<>(PartitionAssignment::compare);
        for (T entry : entries) {
            if (!numbers.apply(entry).isEmpty()) {
                partitions.computeIfAbsent(topicId.apply(entry), id -> new TreeSet<>()).addAll(numbers.apply(entry));
            }
        }
        return partitions.isEmpty() ? EMPTY : new PartitionAssignment(freeze(partitions));
    }

    /** The partitions of {@code partitions}, by topic id; topics without any are left out. */
    static PartitionAssignment of(Map<Uuid, ? extends Collection<Integer>> partitions) {
        Map<Uuid, SortedSet<Integer>> copy = new TreeMap<>(PartitionAssignment::compare);
        partitions.forEach((topicId, numbers) -> {
            if (!numbers.isEmpty()) {
                copy.put(topicId, new TreeSet<>(numbers));
            }
        });
        return copy.isEmpty() ? EMPTY : new PartitionAssignment(freeze(copy));
    }

    /** The partition numbers of a topic, empty if none. */
    SortedSet<Integer> partitions(Uuid topicId) {
        return partitions.getOrDefault(topicId, Collections.emptySortedSet());
    }

    Set<Uuid> topicIds() {
        return partitions.keySet();
    }

    int size() {
        int size = 0;
        for (SortedSet<Integer> numbers : partitions.values()) {
            size += numbers.size();
        }
        return size;
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    boolean contains(Uuid topicId, int partition) {
        SortedSet<Integer> numbers = partitions.get(topicId);
        return numbers != null && numbers.contains(partition);
    }

    /** Each topic id with its partition numbers, in ascending order. */
    void forEachTopic(BiConsumer<Uuid, SortedSet<Integer>> action) {
        partitions.forEach(action);
    }

    /** Each partition, as a topic id and a number. */
    void forEachPartition(PartitionAction action) {
        partitions.forEach((topicId, numbers) -> numbers.forEach(number -> action.accept(topicId, number)));
    }

    /** What {@link #forEachPartition} is given. */
    @FunctionalInterface
    interface PartitionAction {
        void accept(Uuid topicId, int partition);
    }

    /** The topic ids with their partition numbers as lists, for a record or a response. */
    <T> List<T> toList(BiFunction<Uuid, List<Integer>, T> entry) {
        List<T> list = new ArrayList<>(partitions.size());
        partitions.forEach((topicId, numbers) -> list.add(entry.apply(topicId, new ArrayList<>(numbers))));
        return list;
    }

    private static Map<Uuid, SortedSet<Integer>> freeze(Map<Uuid, SortedSet<Integer>> partitions) {
        partitions.replaceAll((topicId, numbers) -> Collections.unmodifiableSortedSet(numbers));
        return Collections.unmodifiableMap(partitions);
    }

    static int compare(Uuid a, Uuid b) {
        int high = Long.compare(a.mostSignificantBits(), b.mostSignificantBits());
        return high != 0 ? high : Long.compare(a.leastSignificantBits(), b.leastSignificantBits());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionAssignment that && partitions.equals(that.partitions);
    }

    @Override
    public int hashCode() {
        return partitions.hashCode();
    }

    @Override
    public String toString() {
        return partitions.toString();
    }
}
