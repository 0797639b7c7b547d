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
    private List<Integer> isr;
    private IntPredicate live;
    private boolean uncleanAsked;
    private int preferred = NO_LEADER;
    private int leader;

    PartitionChange(MetadataImage image, TopicImage topic, PartitionImage current, ElectionRules rules) {
        this.image = image;
        this.topic = topic;
        this.current = current;
        this.rules = rules;
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

    /** The leader after {@link #record()}: the current one when it did not change, -1 for none. */
    int leader() {
        return leader;
    }

    /** The PartitionChangeRecord of this change; null when nothing changes. */
    VersionedRecord record() {
        List<Integer> eligible = eligibleLeaders();
        boolean unclean = false;
        if (preferred >= 0 && canLead(preferred, eligible)) {
            leader = preferred;
        } else if (!canLead(current.leader(), eligible)) {
            leader = first(current.replicas(), replica -> canLead(replica, eligible));
            List<Integer> lastKnown = current.lastKnownElr();
            if (leader < 0 && isr.isEmpty() && eligible.isEmpty() && lastKnown.size() == 1
                    && live.test(lastKnown.get(0))) {
                leader = lastKnown.get(0);
                unclean = true;
            }
            if (leader < 0 && (uncleanAsked || rules.uncleanAllowed(image, topic.name()))) {
                leader = first(current.replicas(), live);
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

    /**
     * The ELR for the new ISR: empty at min ISR; below it, the replicas (in assignment order) that were in the ISR or
     * the ELR and are not in the new ISR, less those forgotten.
     */
    private List<Integer> eligibleLeaders() {
        int minIsr = Math.min(rules.minInsyncReplicas(image, topic.name()), current.replicas().size());
        if (isr.size() >= minIsr) {
            return List.of();
        }
        List<Integer> elr = new ArrayList<>();
        for (int replica : current.replicas()) {
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
        boolean leaderChanged = leader != current.leader();
        boolean elrChanged = !elr.equals(current.elr());
        boolean lastKnownChanged = !lastKnownLeader.equals(current.lastKnownElr());
        if (!isrChanged && !leaderChanged && !elrChanged && !lastKnownChanged) {
            return null;
        }
        PartitionChangeRecordData change = new PartitionChangeRecordData().setTopicId(topic.id())
                .setPartitionId(current.partition())
                .setLeader(leaderChanged ? leader : LEADER_UNCHANGED)
                .setIsr(isrChanged ? new ArrayList<>(isr) : null);
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
