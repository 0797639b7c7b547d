package dev.spool.it.history;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Thread-safe (holds only its settings): checks a history of Kafka client operations for the
 * anomalies of Jepsen's Kafka queue workload, each found by one {@link HistoryCheck}: lost and
 * unseen writes, inconsistent offsets, duplicates, nonmonotonic sends and polls, skipped offsets,
 * aborted and unexpected reads, G1c and G0 transaction cycles.
 *
 * <p>From a workload: record with a {@link HistoryWriter}, close it, then
 * {@code HistoryChecker.standard().check(HistoryReader.read(file))} and assert
 * {@code result.valid()} with {@code result.summary()} as the message. From the command line, on
 * the file a long run left:
 * <pre>
 * java -cp it/target/test-classes dev.spool.it.history.HistoryChecker history.tsv
 * </pre>
 * prints the summary and exits 0 when valid, 1 on anomalies, 2 when the file cannot be read.
 *
 * <p>The checker trusts the history's classification: {@code fail} must mean "definitely not
 * written", so a workload records every error that might have been written as {@code info}.
 */
public final class HistoryChecker {

    /** Examples kept per anomaly kind by default: enough to see a pattern, few enough for a screen. */
    public static final int DEFAULT_EXAMPLES = 5;

    private final List<HistoryCheck> checks;
    private final int maxExamplesPerKind;

    public HistoryChecker(List<HistoryCheck> checks, int maxExamplesPerKind) {
        this.checks = List.copyOf(checks);
        this.maxExamplesPerKind = maxExamplesPerKind;
    }

    /** Every check, keeping {@code maxExamplesPerKind} examples of each kind. */
    public static HistoryChecker standard(int maxExamplesPerKind) {
        return new HistoryChecker(List.of(new LostWriteCheck(), new OffsetConsistencyCheck(), new DuplicateCheck(),
                new SendOrderCheck(), new PollOrderCheck(), new ReadValidityCheck(), new TransactionCycleCheck(),
                new ExactlyOnceCheck()),
                maxExamplesPerKind);
    }

    public static HistoryChecker standard() {
        return standard(DEFAULT_EXAMPLES);
    }

    /**
     * Checks {@code events}, in history order.
     *
     * @throws IllegalArgumentException when the history contradicts itself (see {@link HistoryIndex#build})
     */
    public CheckResult check(List<HistoryEvent> events) {
        HistoryIndex index = HistoryIndex.build(events);
        AnomalyTally tally = new AnomalyTally(maxExamplesPerKind);
        for (HistoryCheck check : checks) {
            check.check(index, tally);
        }
        return new CheckResult(HistoryTotals.of(index), tally);
    }

    public CheckResult check(Path historyFile) throws IOException {
        return check(HistoryReader.read(historyFile));
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The command line without exiting: returns 0 (valid), 1 (anomalies) or 2 (usage, unreadable file). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 1 || args.length > 2) {
            err.println("usage: HistoryChecker <history file> [examples per anomaly kind, default " + DEFAULT_EXAMPLES + "]");
            return 2;
        }
        Path file = Path.of(args[0]);
        try {
            int examples = args.length == 2 ? Integer.parseInt(args[1]) : DEFAULT_EXAMPLES;
            if (!Files.isRegularFile(file)) {
                err.println("no history file at " + file);
                return 2;
            }
            CheckResult result = standard(examples).check(file);
            out.println(file + ": " + result.summary());
            return result.valid() ? 0 : 1;
        } catch (IOException | IllegalArgumentException e) {
            err.println("cannot check " + file + ": " + e.getMessage());
            return 2;
        }
    }
}
