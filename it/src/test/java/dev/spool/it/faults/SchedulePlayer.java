package dev.spool.it.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe: one thread plays a {@link FaultSchedule} against a {@link Nemesis}, aiming each step at the node
 * the cluster has in the step's role at that moment, healing it after its hold, and waiting (boundedly) for every
 * replica to be back in sync before the next, so that no two steps add up to a majority down. It remembers what is
 * still broken, so that {@link #healEverything} leaves every node running and reachable whatever failed mid-step.
 */
public final class SchedulePlayer {

    /** How long a step waits for the cluster to be whole again before the next one goes on regardless. */
    private static final long IN_SYNC_WAIT_MS = 60_000;

    private final Nemesis nemesis;
    private final ClusterProbe probe;
    private final String topic;
    private final List<String> syncedTopics;
    private final Set<Integer> down = new TreeSet<>();
    private final Set<Integer> paused = new TreeSet<>();
    private final Set<Integer> fullDisks = new TreeSet<>();
    private boolean cut;

    /** Aims partition leaders of {@code topic}; waits between steps for {@code syncedTopics} to be fully in sync. */
    public SchedulePlayer(Nemesis nemesis, String topic, List<String> syncedTopics) {
        this.nemesis = nemesis;
        this.probe = new ClusterProbe(nemesis::bootstrap);
        this.topic = topic;
        this.syncedTopics = List.copyOf(syncedTopics);
    }

    /** Plays every step, starting none after {@code deadlineNanos} (System.nanoTime); how many it played. */
    public int play(FaultSchedule schedule, long deadlineNanos) throws Exception {
        int played = 0;
        for (FaultStep step : schedule.steps()) {
            if (System.nanoTime() > deadlineNanos) {
                log("deadline passed: steps " + step.number() + ".. not played");
                break;
            }
            long startedNs = System.nanoTime();
            String what = play(step);
            healEverything();
            boolean whole = probe.awaitEveryReplicaInSync(syncedTopics, IN_SYNC_WAIT_MS);
            log(String.format("step %d %s: %s; healed in %d ms total%s", step.number(), step.kind(), what,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs),
                    whole ? "" : "; replicas NOT all in sync after " + IN_SYNC_WAIT_MS + " ms"));
            Thread.sleep(step.quietMs());
            played++;
        }
        return played;
    }

    private String play(FaultStep step) throws Exception {
        Random pick = new Random(step.pick());
        int target = target(step, pick);
        List<Integer> others = others(target);
        int other = others.get(pick.nextInt(others.size()));
        switch (step.kind()) {
            case KILL -> {
                kill(target);
                Thread.sleep(step.holdMs());
                return "SIGKILL node " + target;
            }
            case TERMINATE -> {
                nemesis.terminate(target);
                down.add(target);
                Thread.sleep(step.holdMs());
                return "SIGTERM node " + target;
            }
            case PAUSE_SHORT, PAUSE_LONG -> {
                pause(target);
                Thread.sleep(step.holdMs());
                return "SIGSTOP node " + target + " for " + step.holdMs() + " ms";
            }
            case POWER_LOSS -> {
                nemesis.powerLoss(target);
                down.add(target);
                Thread.sleep(step.holdMs());
                return "power loss of node " + target;
            }
            case PAUSE_THEN_KILL -> {
                pause(target);
                Thread.sleep(step.holdMs());
                kill(target);
                paused.remove(target);
                Thread.sleep(1_000);
                return "SIGSTOP then SIGKILL node " + target;
            }
            case KILL_AFTER_RESTART -> {
                kill(target);
                Thread.sleep(step.holdMs());
                restartDown();
                int leader = nemesis.leaderOf(topic, step.partition());
                int second = leader > 0 && leader != target ? leader : other;
                kill(second);
                Thread.sleep(step.holdMs());
                return "SIGKILL node " + target + ", restarted, then SIGKILL node " + second;
            }
            case KILL_WHILE_PAUSED -> {
                pause(other);
                kill(target);
                Thread.sleep(step.holdMs());
                return "SIGKILL node " + target + " while node " + other + " is paused";
            }
            case ISOLATE -> {
                partition(Set.of(target), new TreeSet<>(others));
                Thread.sleep(step.holdMs());
                return "node " + target + " isolated";
            }
            case MAJORITY_MINORITY -> {
                Set<Integer> minority = new TreeSet<>(Set.of(target));
                List<Integer> rest = new ArrayList<>(others);
                while (minority.size() < (nemesis.nodes().size() - 1) / 2) {
                    minority.add(rest.remove(pick.nextInt(rest.size())));
                }
                Set<Integer> majority = new TreeSet<>(nemesis.nodes());
                majority.removeAll(minority);
                partition(minority, majority);
                Thread.sleep(step.holdMs());
                return "minority " + minority + " cut from majority " + majority;
            }
            case BRIDGE -> {
                List<Integer> rest = new ArrayList<>(others);
                Collections.shuffle(rest, pick);
                Set<Integer> left = new TreeSet<>(rest.subList(0, rest.size() / 2));
                Set<Integer> right = new TreeSet<>(rest.subList(rest.size() / 2, rest.size()));
                partition(left, right);
                Thread.sleep(step.holdMs());
                return left + " cut from " + right + ", node " + target + " bridging";
            }
            case ONE_WAY -> {
                nemesis.cutOneWay(target, other);
                cut = true;
                Thread.sleep(step.holdMs());
                return "packets from node " + target + " to node " + other + " dropped";
            }
            case DISK_FULL -> {
                nemesis.fillDisk(target);
                fullDisks.add(target);
                Thread.sleep(step.holdMs());
                return "node " + target + "'s disk full";
            }
            default -> throw new IllegalStateException("no player for " + step.kind());
        }
    }

    /**
     * Undoes every fault still in place: cuts healed, disks freed, paused nodes resumed, stopped ones (killed, or
     * stopped by a full disk) restarted.
     */
    public void healEverything() throws Exception {
        if (cut) {
            nemesis.heal();
            cut = false;
        }
        for (int node : List.copyOf(fullDisks)) {
            nemesis.freeDisk(node);
            fullDisks.remove(node);
            if (stoppedItself(node)) {
                // As Kafka's broker does when it cannot write its metadata log: the operator frees the disk and
                // starts it again.
                down.add(node);
            }
        }
        for (int node : List.copyOf(paused)) {
            nemesis.resume(node);
            paused.remove(node);
        }
        restartDown();
    }

    /** Whether {@code node} stopped on its full disk; one still shutting down is given a few seconds to end. */
    private boolean stoppedItself(int node) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (nemesis.isRunning(node) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return !nemesis.isRunning(node);
    }

    private void restartDown() throws Exception {
        for (int node : List.copyOf(down)) {
            nemesis.restart(node);
            down.remove(node);
        }
    }

    private void kill(int node) throws Exception {
        nemesis.kill(node);
        down.add(node);
    }

    private void pause(int node) throws Exception {
        nemesis.pause(node);
        paused.add(node);
    }

    private void partition(Set<Integer> side, Set<Integer> otherSide) throws Exception {
        nemesis.partition(side, otherSide);
        cut = true;
    }

    /** The step's node: the one in its role now, or a seeded random node when the role has nobody in it. */
    private int target(FaultStep step, Random pick) throws Exception {
        int chosen = switch (step.target()) {
            case PARTITION_LEADER -> nemesis.leaderOf(topic, step.partition());
            case QUORUM_LEADER -> nemesis.quorumLeader();
            case RANDOM_NODE -> -1;
        };
        List<Integer> nodes = new ArrayList<>(nemesis.nodes());
        int random = nodes.get(pick.nextInt(nodes.size()));
        return nodes.contains(chosen) ? chosen : random;
    }

    private List<Integer> others(int node) {
        List<Integer> others = new ArrayList<>(nemesis.nodes());
        others.remove(Integer.valueOf(node));
        return others;
    }

    private static void log(String line) {
        System.out.println("SchedulePlayer: " + line);
    }
}
