package dev.spool.broker.metadata;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where new partitions' replicas go: over the registered, unfenced brokers (alternating between racks), round
 * robin, each topic starting at a broker of its own (from its name) so that leadership spreads, the first replica
 * of each partition leading.
 * Stateless.
 */
final class ReplicaPlacement {

    private ReplicaPlacement() {
    }

    /**
     * The ids of the brokers that may be given replicas: registered and not fenced, in id order; when brokers have
     * racks ({@code broker.rack}), alternating between the racks (the first broker of each rack in rack order, then
     * the second of each...), so that consecutive replicas of a partition land on different racks, as Kafka places
     * them.
     */
    static List<Integer> liveBrokers(MetadataImage image) {
        TreeMap<String, List<Integer>> byRack = new TreeMap<>();
        for (BrokerRegistration broker : image.brokers().values()) {
            if (!broker.fenced()) {
                byRack.computeIfAbsent(broker.rack() == null ? "" : broker.rack(), rack -> new ArrayList<>())
                        .add(broker.brokerId());
            }
        }
        byRack.values().forEach(rack -> rack.sort(null));
        List<Integer> live = new ArrayList<>();
        for (int round = 0; live.size() < byRack.values().stream().mapToInt(List::size).sum(); round++) {
            for (List<Integer> rack : byRack.values()) {
                if (round < rack.size()) {
                    live.add(rack.get(round));
                }
            }
        }
        return live;
    }

    /**
     * The replicas of partitions {@code first .. first + count - 1} of a topic, {@code replicationFactor} each
     * (at most the live brokers' count, which the caller checked).
     */
    static List<List<Integer>> place(String topic, int first, int count, int replicationFactor, List<Integer> live) {
        int start = Math.floorMod(topic.hashCode(), live.size());
        List<List<Integer>> placed = new ArrayList<>(count);
        for (int partition = first; partition < first + count; partition++) {
            List<Integer> replicas = new ArrayList<>(replicationFactor);
            for (int replica = 0; replica < replicationFactor; replica++) {
                replicas.add(live.get((start + partition + replica) % live.size()));
            }
            placed.add(List.copyOf(replicas));
        }
        return placed;
    }

    /** Why an explicit assignment cannot be used (no replica, a broker twice, one not live), or null. */
    static String whyInvalid(List<Integer> brokerIds, List<Integer> live) {
        if (brokerIds.isEmpty()) {
            return "names no broker";
        }
        Set<Integer> seen = new HashSet<>();
        for (int brokerId : brokerIds) {
            if (!seen.add(brokerId)) {
                return "names broker " + brokerId + " twice";
            }
            if (!live.contains(brokerId)) {
                return "names broker " + brokerId + ", which is not a live broker (live: " + live + ")";
            }
        }
        return null;
    }
}
