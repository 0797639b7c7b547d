package dev.spool.it.history;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Not thread-safe, and not changed once built: the facts every check reads, derived in one pass
 * over a history. Which clients promised what; every sent value and its status; every record read;
 * for each partition offset the values seen there; how each transaction ended.
 *
 * <p>A transaction the history leaves undecided is taken as committed when a read_committed
 * consumer read one of its values (values sent in exactly that one transaction), since such a
 * consumer sees only committed transactions; its other acknowledged values are then owed to
 * readers like any committed ones.
 */
public final class HistoryIndex {

    private final List<HistoryEvent> events;
    private final Map<String, ClientProfile> profiles = new HashMap<>();
    private final Map<String, SentValue> sends = new LinkedHashMap<>();
    private final Map<String, TransactionRecord> transactionRecords = new LinkedHashMap<>();
    private final Map<String, TransactionOutcome> outcomes = new LinkedHashMap<>();
    private final Map<String, SendStatus> statuses = new HashMap<>();
    private final List<PolledRecord> reads = new java.util.ArrayList<>();
    private final Map<LogPartition, NavigableMap<Long, OffsetSlot>> slots = new TreeMap<>();
    private final Map<LogPartition, Long> highestReadOffsets = new HashMap<>();
    private final Set<String> valuesRead = new HashSet<>();
    private final Set<String> valuesReadCommitted = new HashSet<>();

    private HistoryIndex(List<HistoryEvent> events) {
        this.events = events;
    }

    /**
     * Indexes {@code events}, in history order.
     *
     * @throws IllegalArgumentException when the history contradicts itself (a send ok with no
     *                                  offset, a transaction both committed and aborted); the
     *                                  message names the event
     */
    public static HistoryIndex build(List<HistoryEvent> events) {
        HistoryIndex index = new HistoryIndex(List.copyOf(events));
        for (HistoryEvent event : events) {
            if (event.is(EventType.OK, Operation.OPEN)) {
                index.profiles.put(event.process(), ClientProfile.fromConfiguration(event.attributes()));
            }
        }
        for (int i = 0; i < events.size(); i++) {
            index.add(events.get(i), i);
        }
        index.decideTransactions();
        for (SentValue sent : index.sends.values()) {
            index.statuses.put(sent.value(), sent.status(index::outcome));
        }
        return index;
    }

    private void add(HistoryEvent event, int eventIndex) {
        if (event.txn() != null) {
            transactionRecords.computeIfAbsent(event.txn(), TransactionRecord::new);
        }
        switch (event.operation()) {
            case SEND -> {
                if (event.value() == null) {
                    throw new IllegalArgumentException("send without a value (event " + eventIndex + ")");
                }
                sends.computeIfAbsent(event.value(), SentValue::new).onEvent(event, eventIndex);
                if (event.type() == EventType.OK) {
                    see(event.partition(), event.offset(), event.value(), eventIndex);
                }
            }
            case POLL -> {
                boolean readCommitted = profile(event.process()).readCommitted();
                for (ReadRecord read : event.reads()) {
                    reads.add(new PolledRecord(read, event.process(), event.txn(), eventIndex, readCommitted));
                    see(read.partition(), read.offset(), read.value(), eventIndex);
                    highestReadOffsets.merge(read.partition(), read.offset(), Math::max);
                    valuesRead.add(read.value());
                    if (readCommitted) {
                        valuesReadCommitted.add(read.value());
                    }
                }
            }
            case TXN_BEGIN, TXN_COMMIT, TXN_ABORT -> {
                if (event.txn() == null) {
                    throw new IllegalArgumentException(event.operation().word() + " without a txn (event " + eventIndex + ")");
                }
                transactionRecords.get(event.txn()).onEvent(event, eventIndex);
            }
            default -> {
                // open, assign, subscribe, rebalance, seek and commit state no fact indexed here.
            }
        }
    }

    private void see(LogPartition partition, long offset, String value, int eventIndex) {
        NavigableMap<Long, OffsetSlot> partitionSlots = slots.computeIfAbsent(partition, p -> new TreeMap<>());
        OffsetSlot slot = partitionSlots.get(offset);
        if (slot == null) {
            partitionSlots.put(offset, new OffsetSlot(value, eventIndex));
        } else {
            slot.add(value, eventIndex);
        }
    }

    private void decideTransactions() {
        transactionRecords.forEach((txn, record) -> outcomes.put(txn, record.statedOutcome()));
        for (String value : valuesReadCommitted) {
            SentValue sent = sends.get(value);
            String txn = sent == null ? null : sent.soleTxn();
            if (txn != null && outcomes.get(txn) == TransactionOutcome.UNKNOWN) {
                outcomes.put(txn, TransactionOutcome.COMMITTED);
            }
        }
    }

    public List<HistoryEvent> events() {
        return events;
    }

    public ClientProfile profile(String process) {
        return profiles.getOrDefault(process, ClientProfile.DEFAULT);
    }

    public Collection<SentValue> sends() {
        return Collections.unmodifiableCollection(sends.values());
    }

    /** What was sent of {@code value}, or null when no send carried it. */
    public SentValue sent(String value) {
        return sends.get(value);
    }

    /** The status of a sent value, or null when no send carried it. */
    public SendStatus status(String value) {
        return statuses.get(value);
    }

    /** How {@code txn} ended; a null txn (outside transactions) counts as committed. */
    public TransactionOutcome outcome(String txn) {
        return txn == null ? TransactionOutcome.COMMITTED : outcomes.getOrDefault(txn, TransactionOutcome.UNKNOWN);
    }

    /** Every transaction named in the history and its outcome, in order of first mention. */
    public Map<String, TransactionOutcome> transactions() {
        return Collections.unmodifiableMap(outcomes);
    }

    /** Every record read, in history order. */
    public List<PolledRecord> reads() {
        return Collections.unmodifiableList(reads);
    }

    /** For each partition, the values seen at each offset. */
    public Map<LogPartition, NavigableMap<Long, OffsetSlot>> slots() {
        return Collections.unmodifiableMap(slots);
    }

    /** The highest offset any poll read in {@code partition}, or -1 when none was read. */
    public long highestReadOffset(LogPartition partition) {
        return highestReadOffsets.getOrDefault(partition, -1L);
    }

    public boolean wasRead(String value) {
        return valuesRead.contains(value);
    }

    /** Number of distinct values read. */
    public int distinctValuesRead() {
        return valuesRead.size();
    }

    /**
     * Whether the record at {@code offset} is one every consumer must see: a value seen there is
     * acknowledged, or was read by a read_committed consumer and is neither failed nor aborted.
     */
    public boolean holdsVisibleValue(LogPartition partition, long offset) {
        NavigableMap<Long, OffsetSlot> partitionSlots = slots.get(partition);
        OffsetSlot slot = partitionSlots == null ? null : partitionSlots.get(offset);
        if (slot == null) {
            return false;
        }
        for (OffsetSlot.Claim claim : slot.claims()) {
            SendStatus status = statuses.get(claim.value());
            if (status == SendStatus.ACKNOWLEDGED
                    || (status == SendStatus.INDETERMINATE && valuesReadCommitted.contains(claim.value()))) {
                return true;
            }
        }
        return false;
    }

    /** A short description of event {@code eventIndex}, for anomaly messages. */
    public String describe(int eventIndex) {
        HistoryEvent event = events.get(eventIndex);
        return event.process() + " " + event.type().word() + " " + event.operation().word() + " (event " + eventIndex
                + ", t=" + event.timeNanos() / 1_000_000 + " ms)";
    }
}
