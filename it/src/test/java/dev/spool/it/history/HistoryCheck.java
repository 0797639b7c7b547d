package dev.spool.it.history;

/**
 * One analysis of a history. Implementations are stateless: each run reads the index and adds
 * what it finds to the tally, so checks can be added for new workloads without touching the
 * others.
 */
public interface HistoryCheck {

    void check(HistoryIndex index, AnomalyTally tally);
}
