package dev.spool.it.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Not thread-safe: writes a correct history from a model of a partitioned log, for the property
 * tests. Each partition is a list of entries; a send appends (or, when it fails, does not; when it
 * times out, may); a transaction appends its values and then a marker, committed or aborted
 * (transactions run one at a time, so none is open while a consumer polls); a consumer reads
 * from its position, passing over markers and aborted values as a read_committed consumer does,
 * and sometimes seeks back. Every consumer drains every partition at the end.
 */
final class SimulatedHistory {

    static final String TOPIC = "jt";
    /** Processes whose consumers are plain (not transactional). */
    static final List<String> CONSUMERS = List.of("c0", "c1");
    static final String TRANSACTIONAL = "t0";

    /** One log entry; a null value is a transaction marker. */
    private record Entry(String value, String txn) {
    }

    private final Random random;
    private final HistoryBuilder history = new HistoryBuilder();
    private final List<List<Entry>> logs = new ArrayList<>();
    private final Set<String> abortedTxns = new HashSet<>();
    private final Map<String, long[]> positions = new LinkedHashMap<>();
    private int nextValue;
    private int nextTxn;

    private SimulatedHistory(long seed, int partitions) {
        this.random = new Random(seed);
        for (int p = 0; p < partitions; p++) {
            logs.add(new ArrayList<>());
        }
    }

    static List<HistoryEvent> generate(long seed, int steps, int partitions) {
        SimulatedHistory simulation = new SimulatedHistory(seed, partitions);
        simulation.run(steps);
        return simulation.history.events();
    }

    private void run(int steps) {
        history.open("p0", "enable.idempotence", "true", "acks", "all")
                .open("p1", "enable.idempotence", "false", "max.in.flight.requests.per.connection", "1")
                .open(TRANSACTIONAL, "transactional.id", "t", "isolation.level", "read_committed");
        String[] all = new String[logs.size()];
        for (int p = 0; p < logs.size(); p++) {
            all[p] = partition(p);
        }
        for (String consumer : List.of(CONSUMERS.get(0), CONSUMERS.get(1), TRANSACTIONAL)) {
            history.open(consumer, "isolation.level", "read_committed");
            history.assign(consumer, all);
            positions.put(consumer, new long[logs.size()]);
        }
        for (int step = 0; step < steps; step++) {
            int kind = random.nextInt(10);
            if (kind < 4) {
                send(random.nextBoolean() ? "p0" : "p1");
            } else if (kind < 6) {
                transaction();
            } else if (kind < 9) {
                poll(CONSUMERS.get(random.nextInt(CONSUMERS.size())), null, 1 + random.nextInt(4));
            } else {
                seekBack(CONSUMERS.get(random.nextInt(CONSUMERS.size())));
            }
        }
        for (String consumer : CONSUMERS) {
            for (int p = 0; p < logs.size(); p++) {
                history.add(HistoryEvent.polled(consumer, null, readFrom(consumer, p, Integer.MAX_VALUE)));
            }
        }
    }

    private static String partition(int p) {
        return TOPIC + "-" + p;
    }

    private void send(String process) {
        int p = random.nextInt(logs.size());
        String value = "v" + nextValue++;
        history.invoke(process, null, partition(p), value);
        int outcome = random.nextInt(10);
        if (outcome < 7) {
            history.ack(process, partition(p), value, append(p, new Entry(value, null)));
        } else if (outcome < 9) {
            if (random.nextBoolean()) {
                append(p, new Entry(value, null)); // written, but the answer was lost
            }
            history.ended(process, EventType.INFO, partition(p), value);
        } else {
            history.ended(process, EventType.FAIL, partition(p), value);
        }
    }

    private void transaction() {
        String txn = "T" + nextTxn++;
        history.transaction(TRANSACTIONAL, Operation.TXN_BEGIN, EventType.OK, txn);
        if (random.nextBoolean()) {
            poll(TRANSACTIONAL, txn, 1 + random.nextInt(3));
        }
        Set<Integer> written = new HashSet<>();
        for (int i = 0, sends = 1 + random.nextInt(3); i < sends; i++) {
            int p = random.nextInt(logs.size());
            String value = "v" + nextValue++;
            history.txnSend(TRANSACTIONAL, txn, partition(p), value, append(p, new Entry(value, txn)));
            written.add(p);
        }
        boolean commit = random.nextInt(10) < 7;
        for (int p : written) {
            append(p, new Entry(null, txn));
        }
        if (commit) {
            history.commit(TRANSACTIONAL, txn);
        } else {
            abortedTxns.add(txn);
            history.abort(TRANSACTIONAL, txn);
        }
    }

    private long append(int p, Entry entry) {
        logs.get(p).add(entry);
        return logs.get(p).size() - 1;
    }

    private void poll(String consumer, String txn, int maxRecords) {
        int p = random.nextInt(logs.size());
        history.add(HistoryEvent.polled(consumer, txn, readFrom(consumer, p, maxRecords)));
    }

    private List<ReadRecord> readFrom(String consumer, int p, int maxRecords) {
        long[] position = positions.get(consumer);
        List<Entry> log = logs.get(p);
        List<ReadRecord> reads = new ArrayList<>();
        int offset = (int) position[p];
        for (; offset < log.size() && reads.size() < maxRecords; offset++) {
            Entry entry = log.get(offset);
            if (entry.value() != null && (entry.txn() == null || !abortedTxns.contains(entry.txn()))) {
                reads.add(ReadRecord.of(partition(p), offset, entry.value()));
            }
        }
        position[p] = offset;
        return reads;
    }

    private void seekBack(String consumer) {
        int p = random.nextInt(logs.size());
        long[] position = positions.get(consumer);
        position[p] = position[p] == 0 ? 0 : random.nextInt((int) position[p] + 1);
        history.seek(consumer, partition(p), position[p]);
    }
}
