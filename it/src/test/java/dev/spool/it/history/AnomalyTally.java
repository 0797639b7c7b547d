package dev.spool.it.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe: filled by one checker run. Counts anomalies by kind and keeps the first few of
 * each as examples, so that a history of millions of events with a systematic fault still gives
 * a summary that fits on a screen.
 */
public final class AnomalyTally {

    private final int maxExamplesPerKind;
    private final Map<AnomalyKind, Long> counts = new EnumMap<>(AnomalyKind.class);
    private final Map<AnomalyKind, List<Anomaly>> examples = new EnumMap<>(AnomalyKind.class);

    public AnomalyTally(int maxExamplesPerKind) {
        if (maxExamplesPerKind < 0) {
            throw new IllegalArgumentException("negative number of examples: " + maxExamplesPerKind);
        }
        this.maxExamplesPerKind = maxExamplesPerKind;
    }

    public void add(Anomaly anomaly) {
        counts.merge(anomaly.kind(), 1L, Long::sum);
        List<Anomaly> kept = examples.computeIfAbsent(anomaly.kind(), kind -> new ArrayList<>());
        if (kept.size() < maxExamplesPerKind) {
            kept.add(anomaly);
        }
    }

    public long count(AnomalyKind kind) {
        return counts.getOrDefault(kind, 0L);
    }

    public List<Anomaly> examples(AnomalyKind kind) {
        return Collections.unmodifiableList(examples.getOrDefault(kind, List.of()));
    }
}
