package dev.spool.log.producer;

/**
 * Immutable, compared by identity: the proof that a leader asked a producer's transaction coordinator, before
 * writing the batch that opens the producer's transaction in a partition, whether the partition is in the
 * transaction (KIP-890). The log hands one out when the question starts ({@link TransactionVerifications#start})
 * and forgets it as soon as the producer's transaction state there changes: a batch opens the transaction, or a marker ends one. A
 * batch that would open a transaction is then written only with the guard the log still holds, so that a marker
 * written while the coordinator was being asked (the transaction the answer was about has ended) makes the append
 * fail instead of opening a transaction no coordinator knows, which nothing would ever end.
 */
public final class VerificationGuard {

    /** The append is not subject to verification (it is off, or the batch is no client's). */
    public static final VerificationGuard NOT_CHECKED = new VerificationGuard("not checked");

    /** No verification was started for the batch: it may only join a transaction already open in the partition. */
    public static final VerificationGuard NONE = new VerificationGuard("none");

    private final String name;

    private VerificationGuard(String name) {
        this.name = name;
    }

    /** A new guard, equal to no other. */
    static VerificationGuard create() {
        return new VerificationGuard("started");
    }

    @Override
    public String toString() {
        return "VerificationGuard(" + name + ")";
    }
}
