package dev.spool.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.history.CheckResult;
import dev.spool.it.history.HistoryChecker;
import dev.spool.it.history.HistoryWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's proof under faults: the {@link Workload} (idempotent and plain acks=all producers, an assigned reader, a
 * committing group) runs on three nodes while a seeded {@link FaultSchedule} plays every fault the bed supports; then
 * everything is healed, the readers drain to the log end, and the {@link HistoryChecker} decides from the history
 * alone: no lost write, no offset holding two values, no duplicate from an idempotent producer, no aborted read.
 * By default (and in {@code bin/test}) it plays every fault kind the bed supports once, in a seeded order (2-3
 * minutes with the healing); {@code -Dfaults.seconds=N} plays random kinds after those until about N seconds of
 * faults. A failure prints the seed to replay it ({@code -Dfaults.seed=S}) and where the nodes' logs are.
 */
class FaultScheduleIT {

    private static final String TOPIC = "queue";
    /** Where the workload's consume-transform-produce copier writes what it reads from {@link #TOPIC}. */
    private static final String COPIES = "copies";
    private static final int PARTITIONS = 4;
    /** Nodes of the cluster, {@code -Dfaults.nodes=N} (3; 5 adds the kill of a second node while one is paused). */
    private static final int NODES = Integer.getInteger("faults.nodes", 3);
    /** A node missing its heartbeats this long is fenced: the line between a short and a long pause. */
    private static final long SESSION_TIMEOUT_MS = 3_000;
    /** Every kind once, nothing more. */
    private static final int DEFAULT_SECONDS = 0;

    @Test
    void everyAcknowledgedWriteIsReadOnceAtOneOffsetWhileTheScheduleInjectsFaults() throws Exception {
        long seed = Long.getLong(FaultSchedule.SEED_PROPERTY, System.nanoTime() & Long.MAX_VALUE);
        int seconds = Integer.getInteger(FaultSchedule.SECONDS_PROPERTY, DEFAULT_SECONDS);
        Path historyFile = Files.createDirectories(Path.of("target", "faults")).resolve("history-" + seed + ".tsv")
                .toAbsolutePath();
        long startedNs = System.nanoTime();
        FaultSchedule schedule = null;
        Path nodeLogs = null;
        try (Nemesis nemesis = Beds.start(NODES, seed, List.of("broker.session.timeout.ms=" + SESSION_TIMEOUT_MS,
                "broker.heartbeat.interval.ms=500", "group.initial.rebalance.delay.ms=0"))) {
            nodeLogs = nemesis instanceof NamespaceCluster namespaces ? namespaces.nodeLogs() : null;
            schedule = FaultSchedule.generate(seed, seconds, nemesis.nodes().size(), nemesis.canPartition(),
                    nemesis.canFillDisk(), SESSION_TIMEOUT_MS, PARTITIONS);
            System.out.println("FaultScheduleIT: " + schedule + "history: " + historyFile);
            ClusterProbe probe = new ClusterProbe(nemesis::bootstrap);
            probe.createTopic(TOPIC, PARTITIONS, 2);
            probe.createTopic(COPIES, PARTITIONS, 2);
            assertThat(probe.awaitEveryReplicaInSync(List.of(TOPIC, COPIES), 60_000)).as("the topics in sync")
                    .isTrue();

            CheckResult result;
            String drained;
            try (HistoryWriter history = HistoryWriter.create(historyFile)) {
                Workload workload = new Workload(nemesis::bootstrap, history, TOPIC, COPIES, PARTITIONS);
                workload.start();
                SchedulePlayer player = new SchedulePlayer(nemesis, TOPIC,
                        List.of(TOPIC, COPIES, "__consumer_offsets"));
                // Bounded whatever happens: twice the faults' length, or 25 s a step (a fault, its healing and
                // the quiet after it) for the every-kind-once run, and a minute more.
                long deadlineNs = System.nanoTime()
                        + TimeUnit.SECONDS.toNanos(Math.max(2L * seconds, 25L * schedule.steps().size()) + 60);
                int played;
                try {
                    played = player.play(schedule, deadlineNs);
                } finally {
                    player.healEverything();
                    workload.stopProducers();
                }
                System.out.printf("FaultScheduleIT: %d of %d steps played in %d s; %d sends acknowledged%n", played,
                        schedule.steps().size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNs),
                        workload.acknowledged());
                Map<Integer, Long> ends = probe.endOffsets(TOPIC, PARTITIONS);
                drained = workload.drainTo(ends, 120_000);
                if (drained.isEmpty()) {
                    drained = workload.drainCopiesTo(probe.endOffsets(COPIES, PARTITIONS), 60_000);
                }
                if (!drained.isEmpty()) {
                    drained += "\n" + probe.openTransactions(TOPIC, PARTITIONS) + "\n"
                            + probe.openTransactions(COPIES, PARTITIONS);
                }
            }
            // Liveness: with every fault healed, every replica catches up and is back in the ISR (a follower that
            // could not truncate its diverged log never would; -Dfaults.brokenBuild=skip-truncation).
            boolean converged = probe.awaitEveryReplicaInSync(List.of(TOPIC, COPIES, "__consumer_offsets"),
                    120_000);
            result = HistoryChecker.standard().check(historyFile);
            System.out.printf("FaultScheduleIT: seed %d, %d s; history %s%n%s", seed,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNs), historyFile, result.summary());
            assertThat(result.valid()).as("the history (%s):%n%s", schedule.replayHint(), result.summary()).isTrue();
            assertThat(drained).as("readers at the log end after healing (%s)", schedule.replayHint()).isEmpty();
            assertThat(converged).as("every replica in sync again after healing (%s)", schedule.replayHint()).isTrue();
        } catch (Exception | Error failure) {
            System.out.println("FaultScheduleIT FAILED: seed " + seed + ", "
                    + (schedule == null ? "-D" + FaultSchedule.SEED_PROPERTY + "=" + seed : schedule.replayHint())
                    + " -Dfaults.nodes=" + NODES + "; history " + historyFile + (nodeLogs == null ? "" : "; node logs " + nodeLogs));
            throw failure;
        }
    }
}
