package dev.spool.it.history;

import java.util.Map;

/**
 * What a client's configuration promises, read from its {@code open} event under Kafka's names.
 * Immutable, so thread-safe.
 *
 * <p>A client with no {@code open} event gets Kafka's defaults, the strict reading for the
 * checker: a producer is idempotent (the default since Kafka 3.0, KIP-679) and a consumer is
 * read_committed (Kafka's default is read_uncommitted, but assuming it would hide aborted reads;
 * a workload with read_uncommitted consumers must say so).
 *
 * @param idempotent duplicates from the producer's own retries are failures
 * @param ordered    the producer keeps the order of its sends per partition (idempotent, or at most
 *                   one request in flight)
 * @param readCommitted the consumer must not see aborted transactions
 * @param processing    a consume-transform-produce client: a transactional producer with a consumer group (both
 *                      configurations in its {@code open} event), whose transactions must process each input once
 */
public record ClientProfile(boolean idempotent, boolean ordered, boolean readCommitted, boolean processing) {

    /** A client no {@code open} event described. */
    public static final ClientProfile DEFAULT = fromConfiguration(Map.of());

    public static ClientProfile fromConfiguration(Map<String, String> configuration) {
        boolean transactional = configuration.containsKey("transactional.id");
        String acks = configuration.getOrDefault("acks", "all");
        int maxInFlight = Integer.parseInt(configuration.getOrDefault("max.in.flight.requests.per.connection", "5"));
        String idempotence = configuration.get("enable.idempotence");
        // Kafka enables idempotence by default only when nothing conflicts with it (acks=all, at
        // most 5 requests in flight); an explicit setting wins.
        boolean idempotent = transactional || (idempotence == null
                ? (acks.equals("all") || acks.equals("-1")) && maxInFlight <= 5
                : Boolean.parseBoolean(idempotence));
        boolean readCommitted = !"read_uncommitted".equals(configuration.get("isolation.level"));
        boolean processing = transactional && configuration.containsKey("group.id");
        return new ClientProfile(idempotent, idempotent || maxInFlight == 1, readCommitted, processing);
    }
}
