package dev.spool.it.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Immutable, so thread-safe: a seeded random sequence of fault steps, the same for the same seed, run length,
 * cluster size, bed abilities and session timeout, so a failing run replays with the seed it printed.
 *
 * <p>The first steps are every kind the bed supports, in a seeded order, so even a short run injects each at least
 * once; random kinds follow until the estimated length of the run reaches the requested seconds. Targets, holds and
 * quiet times are random too. A long pause lasts past {@code broker.session.timeout.ms} (the node is fenced), a short
 * one stays under half of it.
 */
public final class FaultSchedule {

    /** Property giving the seed of a replay. */
    public static final String SEED_PROPERTY = "faults.seed";
    /** Property giving the length of the run, in seconds of faults. */
    public static final String SECONDS_PROPERTY = "faults.seconds";

    /** What a restart and the catching up after it cost on a loaded 2-core machine, for the run's estimate. */
    private static final long RESTART_ESTIMATE_MS = 8_000;

    private final long seed;
    private final int seconds;
    private final List<FaultStep> steps;

    private FaultSchedule(long seed, int seconds, List<FaultStep> steps) {
        this.seed = seed;
        this.seconds = seconds;
        this.steps = List.copyOf(steps);
    }

    /**
     * The schedule of {@code seed} for about {@code seconds} of faults on {@code nodes} nodes whose bed can or cannot
     * partition and fill disks, aiming partition leaders among {@code partitions} partitions.
     */
    public static FaultSchedule generate(long seed, int seconds, int nodes, boolean canPartition, boolean canFillDisk,
                                         long sessionTimeoutMs, int partitions) {
        Random random = new Random(seed);
        List<FaultKind> kinds = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            if (kind.applies(nodes, canPartition, canFillDisk)) {
                kinds.add(kind);
            }
        }
        List<FaultKind> order = new ArrayList<>(kinds);
        Collections.shuffle(order, random);
        List<FaultStep> steps = new ArrayList<>();
        long estimateMs = 0;
        long budgetMs = seconds * 1_000L;
        while (steps.size() < kinds.size() || estimateMs < budgetMs) {
            FaultKind kind = steps.size() < order.size() ? order.get(steps.size()) : kinds.get(random.nextInt(kinds.size()));
            FaultStep step = new FaultStep(steps.size() + 1, kind, FaultTarget.values()[random.nextInt(FaultTarget.values().length)],
                    random.nextInt(partitions), random.nextLong() & Long.MAX_VALUE, holdMs(kind, random, sessionTimeoutMs),
                    500 + random.nextInt(1_500));
            steps.add(step);
            estimateMs += step.holdMs() + step.quietMs() + (kind.stopsProcesses() ? RESTART_ESTIMATE_MS : 2_000);
        }
        return new FaultSchedule(seed, seconds, steps);
    }

    private static long holdMs(FaultKind kind, Random random, long sessionTimeoutMs) {
        return switch (kind) {
            case PAUSE_SHORT -> 200 + random.nextInt((int) Math.max(1, sessionTimeoutMs / 2 - 200));
            case PAUSE_LONG -> sessionTimeoutMs + 1_000 + random.nextInt(4_000);
            case ISOLATE, MAJORITY_MINORITY, BRIDGE, ONE_WAY -> 2_000 + random.nextInt(8_000);
            default -> 500 + random.nextInt(5_000);
        };
    }

    public long seed() {
        return seed;
    }

    public int seconds() {
        return seconds;
    }

    public List<FaultStep> steps() {
        return steps;
    }

    /** The system properties that run this schedule again. */
    public String replayHint() {
        return "replay with -D" + SEED_PROPERTY + "=" + seed + " -D" + SECONDS_PROPERTY + "=" + seconds;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("fault schedule, seed " + seed + ", " + seconds + " s, "
                + steps.size() + " steps (" + replayHint() + "):\n");
        for (FaultStep step : steps) {
            text.append(step).append('\n');
        }
        return text.toString();
    }
}
