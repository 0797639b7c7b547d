package dev.spool.it.history;

/**
 * What a client did. Immutable, so thread-safe.
 *
 * <p>The consumer operations that move a consumer's position other than by polling (assign,
 * subscribe, a rebalance, a seek) are recorded so that the checker forgives the jump in offsets
 * that follows them.
 */
public enum Operation {
    /** A client was created; its attributes are its configuration (Kafka's names). */
    OPEN("open"),
    /** A producer sent one value to one partition; ok carries the offset it was written at. */
    SEND("send"),
    /** A consumer polled; ok carries the records returned. */
    POLL("poll"),
    /** A consumer was assigned the listed partitions by hand. */
    ASSIGN("assign"),
    /** A consumer subscribed to topics (attribute {@code topics}). */
    SUBSCRIBE("subscribe"),
    /** A group consumer was handed the listed partitions by a rebalance. */
    REBALANCE("rebalance"),
    /** A consumer moved its position to the listed offsets. */
    SEEK("seek"),
    /** Consumer offsets were committed (to the group, or to a transaction when it names one). */
    COMMIT("commit"),
    /** A transactional producer began a transaction. */
    TXN_BEGIN("txn-begin"),
    /** A transactional producer committed a transaction. */
    TXN_COMMIT("txn-commit"),
    /** A transactional producer aborted a transaction. */
    TXN_ABORT("txn-abort");

    private final String word;

    Operation(String word) {
        this.word = word;
    }

    /** The word used in a history line. */
    public String word() {
        return word;
    }

    /** Whether the operation sets where a consumer reads next, other than by polling. */
    public boolean movesConsumerPosition() {
        return this == ASSIGN || this == SUBSCRIBE || this == REBALANCE || this == SEEK;
    }

    public static Operation fromWord(String word) {
        for (Operation operation : values()) {
            if (operation.word.equals(word)) {
                return operation;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + word + "'");
    }
}
