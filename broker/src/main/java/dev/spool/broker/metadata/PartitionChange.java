package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * One partition's next state as the controller decides it, after an ISR change, a fence, an unfence, an
 * unregistration or an election asked for; KIP-966's rules, as Kafka's controller applies them:
 * <ul>
 * <li><b>Eligible leader replicas.</b> While the new ISR is smaller than the topic's min.insync.replicas (capped at
 * the replication factor, as the leader caps it for its high watermark), a replica leaving the ISR joins the ELR:
 * the high watermark has stood still since, so it holds every committed record. The ISR may empty. At min ISR the
 * ELR is cleared. A replica whose broker may have lost records (an unclean shutdown) or is gone leaves the ELR.
 * <li><b>The leader.</b> The current one while it is an unfenced member of the ISR; else the first unfenced ISR
 * member in assignment order; with the ISR empty, the first unfenced ELR member, which becomes the whole ISR; with
 * the ISR and the ELR empty, the last known leader once unfenced (what Kafka did before KIP-966, when the last ISR
 * member stayed in the ISR); else, where the topic allows unclean elections, any unfenced replica, which becomes the
 * whole ISR (the ELR forgotten); else none (-1).
 * <li><b>The last known leader</b> ({@code LastKnownElr}, one broker): recorded when the ISR empties, cleared once a
 * leader is elected.
 * <li><b>Reassignment</b> (KIP-455). Asked for, the replicas become the target followed by the current ones not in
 * it, those being added and removed recorded beside them. It completes, in whichever change first finds it so, once
 * every target replica is in the ISR (so the ISR that is left never holds fewer than the target does): the replicas
 * become the target, the removed ones leave the ISR and the ELR, and a removed leader gives way to the first in-sync
 * target replica. Cancelled, the replicas go back to those before it. Whenever replicas leave, the leader epoch goes
 * up, as in Kafka: the leader forgets what it knew of its followers, so a replica removed and added again with an
 * empty log is never taken for the one that left.
 * </ul>
 * Built for one change on the controller thread; not thread-safe.
 */
final class PartitionChange {

    /** PartitionRecord and PartitionChangeRecord v2 carry the ELR fields (tagged); v0 is written when they do not change. */
    static final short ELR_RECORD_VERSION = 2;

    private static final int NO_LEADER = -1;
    private static final int LEADER_UNCHANGED = -2;

    private final MetadataImage image;
    private final TopicImage topic;
    private final PartitionImage current;
    private final ElectionRules rules;
    private final Set<Integer> forgotten = new HashSet<>();
    private List<Integer> replicas;
    private List<Integer> adding;
    private List<Integer> removing;
    private List<Integer> isr;
    private IntPredicate live;
    private boolean uncleanAsked;
    private int preferred = NO_LEADER;
    private int leader;
    private boolean newLeaderEpoch;

    PartitionChange(MetadataImage image, TopicImage topic, PartitionImage current, ElectionRules rules) {
        this.image = image;
        this.topic = topic;
        this.current = current;
        this.rules = rules;
        this.replicas = current.replicas();
        this.adding = current.addingReplicas();
        this.removing = current.removingReplicas();
        this.isr = current.isr();
        this.live = image::isUnfenced;
        this.leader = current.leader();
    }

    /** The ISR becomes {@code isr} (a leader's AlterPartition). */
    PartitionChange isr(List<Integer> isr) {
        this.isr = List.copyOf(isr);
        return this;
    }

    /** {@code brokerId} is being fenced or unregistered: it leaves the ISR, even as its last member, and cannot lead. */
    PartitionChange without(int brokerId) {
        isr = isr.stream().filter(replica -> replica != brokerId).toList();
        live = live.and(replica -> replica != brokerId);
        return this;
    }

    /** {@code brokerId} is being unfenced: it may lead. */
    PartitionChange unfencing(int brokerId) {
        live = live.or(replica -> replica == brokerId);
        return this;
    }

    /** {@code brokerId} may have lost records, or is gone: it is no longer an eligible leader. */
    PartitionChange forgetting(int brokerId) {
        forgotten.add(brokerId);
        return this;
    }

    /** An operator asked for an unclean election (ElectLeaders): allowed whatever the topic says. */
    PartitionChange unclean() {
        uncleanAsked = true;
        return this;
    }

    /** {@code replica} leads if it may (a preferred leader election). */
    PartitionChange preferring(int replica) {
        preferred = replica;
        return this;
    }

    /**
     * A reassignment to {@code target} (distinct brokers; AlterPartitionReassignments), replacing any under way: the
     * replicas now are {@code target} and then those of the current ones not in it.
     */
    PartitionChange reassigning(List<Integer> target) {
        List<Integer> merged = new ArrayList<>(target);
        List<Integer> leaving = current.replicas().stream().filter(replica -> !target.contains(replica)).toList();
        merged.addAll(leaving);
        replicas = List.copyOf(merged);
        adding = target.stream().filter(replica -> !current.replicas().contains(replica)).toList();
        removing = leaving;
        return this;
    }

    /** The reassignment under way is given up: the replicas it was adding leave, those it was removing stay. */
    PartitionChange cancellingReassignment() {
        List<Integer> added = current.addingReplicas();
        replicas = current.originalReplicas();
        isr = isr.stream().filter(replica -> !added.contains(replica)).toList();
        adding = List.of();
        removing = List.of();
        return this;
    }

    /** Whether the record of {@link #record()} starts a new leader epoch. */
    boolean newLeaderEpoch() {
        return newLeaderEpoch;
    }

    /** The replicas after {@link #record()}. */
    List<Integer> replicas() {
        return replicas;
    }

    /** The ISR after {@link #record()}. */
    List<Integer> isr() {
        return isr;
    }

    /** The leader after {@link #record()}: the current one when it did not change, -1 for none. */
    int leader() {
        return leader;
    }

    /** The PartitionChangeRecord of this change; null when nothing changes. */
    VersionedRecord record() {
        completeReassignmentIfDone();
        List<Integer> eligible = eligibleLeaders();
        boolean unclean = false;
        if (preferred >= 0 && canLead(preferred, eligible)) {
            leader = preferred;
        } else if (!canLead(current.leader(), eligible)) {
            leader = first(replicas, replica -> canLead(replica, eligible));
            List<Integer> lastKnown = current.lastKnownElr();
            if (leader < 0 && isr.isEmpty() && eligible.isEmpty() && lastKnown.size() == 1
                    && live.test(lastKnown.get(0))) {
                leader = lastKnown.get(0);
                unclean = true;
            }
            if (leader < 0 && (uncleanAsked || rules.uncleanAllowed(image, topic.name()))) {
                leader = first(replicas, live);
                unclean = leader >= 0;
            }
        }
        List<Integer> elr = eligible;
        if (leader >= 0 && !isr.contains(leader)) {
            // Elected from the ELR, or out of sync: it alone holds what the partition holds from now on.
            int elected = leader;
            isr = List.of(elected);
            elr = unclean ? List.of() : eligible.stream().filter(replica -> replica != elected).toList();
        }
        List<Integer> lastKnownLeader = current.lastKnownElr();
        if (isr.isEmpty() && current.leader() >= 0) {
            lastKnownLeader = List.of(current.leader());
        } else if (leader >= 0) {
            lastKnownLeader = List.of();
        }
        return recordOf(elr, lastKnownLeader);
    }

    /** A reassignment under way whose target replicas are all in sync completes. */
    private void completeReassignmentIfDone() {
        if (adding.isEmpty() && removing.isEmpty()) {
            return;
        }
        List<Integer> target = replicas.stream().filter(replica -> !removing.contains(replica)).toList();
        List<Integer> remaining = isr.stream().filter(replica -> !removing.contains(replica)).toList();
        if (!remaining.containsAll(target)) {
            return;
        }
        forgotten.addAll(removing);
        replicas = target;
        isr = remaining;
        adding = List.of();
        removing = List.of();
    }

    /** The topic's min.insync.replicas, capped at the replication factor, as the leader caps it for its high watermark. */
    private int minIsr(List<Integer> replicaSet) {
        return Math.min(rules.minInsyncReplicas(image, topic.name()), replicaSet.size());
    }

    /**
     * The ELR for the new ISR: empty at min ISR; below it, the replicas (in assignment order) that were in the ISR or
     * the ELR and are not in the new ISR, less those forgotten.
     */
    private List<Integer> eligibleLeaders() {
        if (isr.size() >= minIsr(replicas)) {
            return List.of();
        }
        List<Integer> elr = new ArrayList<>();
        for (int replica : replicas) {
            boolean wasEligible = current.isr().contains(replica) || current.elr().contains(replica);
            if (wasEligible && !isr.contains(replica) && !forgotten.contains(replica)) {
                elr.add(replica);
            }
        }
        return elr;
    }

    /** Whether {@code replica} may lead: unfenced, and in the ISR, or in the ELR while the ISR is empty. */
    private boolean canLead(int replica, List<Integer> elr) {
        return replica >= 0 && live.test(replica) && (isr.contains(replica) || isr.isEmpty() && elr.contains(replica));
    }

    private static int first(List<Integer> replicas, IntPredicate test) {
        for (int replica : replicas) {
            if (test.test(replica)) {
                return replica;
            }
        }
        return NO_LEADER;
    }

    private VersionedRecord recordOf(List<Integer> elr, List<Integer> lastKnownLeader) {
        boolean isrChanged = !isr.equals(current.isr());
        // Replicas leaving: a new leader epoch even when the leader stays (Kafka's rule for reassignments).
        boolean leaderChanged = leader != current.leader() || !replicas.containsAll(current.replicas());
        boolean elrChanged = !elr.equals(current.elr());
        boolean lastKnownChanged = !lastKnownLeader.equals(current.lastKnownElr());
        boolean replicasChanged = !replicas.equals(current.replicas());
        boolean addingChanged = !adding.equals(current.addingReplicas());
        boolean removingChanged = !removing.equals(current.removingReplicas());
        if (!isrChanged && !leaderChanged && !elrChanged && !lastKnownChanged && !replicasChanged && !addingChanged
                && !removingChanged) {
            return null;
        }
        newLeaderEpoch = leaderChanged;
        PartitionChangeRecordData change = new PartitionChangeRecordData().setTopicId(topic.id())
                .setPartitionId(current.partition())
                .setLeader(leaderChanged ? leader : LEADER_UNCHANGED)
                .setIsr(isrChanged ? new ArrayList<>(isr) : null)
                .setReplicas(replicasChanged ? new ArrayList<>(replicas) : null)
                .setAddingReplicas(addingChanged ? new ArrayList<>(adding) : null)
                .setRemovingReplicas(removingChanged ? new ArrayList<>(removing) : null);
        if (elrChanged) {
            change.setEligibleLeaderReplicas(new ArrayList<>(elr));
        }
        if (lastKnownChanged) {
            change.setLastKnownElr(new ArrayList<>(lastKnownLeader));
        }
        return new VersionedRecord(MetadataRecordType.PARTITION_CHANGE_RECORD,
                elrChanged || lastKnownChanged ? ELR_RECORD_VERSION : 0, change);
    }
}
