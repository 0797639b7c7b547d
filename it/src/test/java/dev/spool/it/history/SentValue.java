package dev.spool.it.history;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Not thread-safe: built by one {@link HistoryIndex}. Everything the history says about the sends
 * of one value: each attempt's invocation and ending, and the offsets it was acknowledged at.
 *
 * <p>Attempts are not paired invoke to ending (a producer has many sends in flight, and a value
 * is sent twice only when the workload retries it); the status counts them instead: an attempt
 * invoked and never ended may have been written.
 */
public final class SentValue {

    /** One acknowledgement: where the value was written, and in which transaction (null if none). */
    public record Acknowledgement(LogPartition partition, long offset, String txn, int eventIndex) {
    }

    private final String value;
    private final List<Acknowledgement> acknowledgements = new ArrayList<>(1);
    private final Set<String> txns = new LinkedHashSet<>(1);
    private final List<String> indeterminateTxns = new ArrayList<>(0);
    private String process;
    private int firstEventIndex = -1;
    private int invocations;
    private int failures;
    private boolean outsideTransactions;

    SentValue(String value) {
        this.value = value;
    }

    void onEvent(HistoryEvent event, int eventIndex) {
        if (firstEventIndex < 0) {
            firstEventIndex = eventIndex;
            process = event.process();
        }
        if (event.txn() == null) {
            outsideTransactions = true;
        } else {
            txns.add(event.txn());
        }
        switch (event.type()) {
            case INVOKE -> invocations++;
            case OK -> {
                if (event.partition() == null || event.offset() == HistoryEvent.NO_OFFSET) {
                    throw new IllegalArgumentException("send ok of value " + value + " without partition or offset (event "
                            + eventIndex + ")");
                }
                acknowledgements.add(new Acknowledgement(event.partition(), event.offset(), event.txn(), eventIndex));
            }
            case FAIL -> failures++;
            case INFO -> indeterminateTxns.add(event.txn());
        }
    }

    /**
     * The status given the outcome of each transaction: acknowledged if an acknowledgement stands
     * (outside a transaction or in a committed one); else indeterminate if an attempt may still
     * have been written; else aborted if an attempt was in an aborted transaction; else failed.
     */
    public SendStatus status(Function<String, TransactionOutcome> outcomes) {
        if (visibleAcknowledgement(outcomes) != null) {
            return SendStatus.ACKNOWLEDGED;
        }
        boolean aborted = false;
        for (Acknowledgement ack : acknowledgements) {
            if (outcomes.apply(ack.txn()) == TransactionOutcome.UNKNOWN) {
                return SendStatus.INDETERMINATE;
            }
            aborted = true;
        }
        for (String txn : indeterminateTxns) {
            if (txn == null || outcomes.apply(txn) != TransactionOutcome.ABORTED) {
                return SendStatus.INDETERMINATE;
            }
            aborted = true;
        }
        int unended = invocations - acknowledgements.size() - failures - indeterminateTxns.size();
        if (unended > 0) {
            if (outsideTransactions || txns.stream().anyMatch(txn -> outcomes.apply(txn) != TransactionOutcome.ABORTED)) {
                return SendStatus.INDETERMINATE;
            }
            aborted = true;
        }
        return aborted ? SendStatus.ABORTED : failures > 0 ? SendStatus.FAILED : SendStatus.INDETERMINATE;
    }

    /** The first acknowledgement outside a transaction or in a committed one, or null. */
    public Acknowledgement visibleAcknowledgement(Function<String, TransactionOutcome> outcomes) {
        for (Acknowledgement ack : acknowledgements) {
            if (ack.txn() == null || outcomes.apply(ack.txn()) == TransactionOutcome.COMMITTED) {
                return ack;
            }
        }
        return null;
    }

    public String value() {
        return value;
    }

    /** The process of the first event about this value. */
    public String process() {
        return process;
    }

    /** The index of the first event about this value (its first invocation, normally). */
    public int firstEventIndex() {
        return firstEventIndex;
    }

    public int invocations() {
        return invocations;
    }

    public List<Acknowledgement> acknowledgements() {
        return acknowledgements;
    }

    /** The transactions its sends belonged to (usually none or one). */
    public Set<String> txns() {
        return txns;
    }

    /** The only transaction it was sent in, or null when it was sent outside or in several. */
    public String soleTxn() {
        return !outsideTransactions && txns.size() == 1 ? txns.iterator().next() : null;
    }
}
