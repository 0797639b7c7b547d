package dev.spool.broker.group;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A classic group's membership: state, generation, chosen protocol, leader, members (in join order),
 * static members by instance id, and members given an id that have not joined with it yet
 * (MEMBER_ID_REQUIRED, KIP-394). Knows the rules that depend only on itself (protocol selection,
 * whether everyone has rejoined); the {@link ClassicGroupMembership} drives it. Not thread-safe:
 * owned by the group coordinator thread.
 */
final class ClassicGroup {

    private final String groupId;
    private GroupState state = GroupState.EMPTY;
    private long currentStateTimestampMs;
    private int generationId;
    private String protocolType;
    private String protocolName;
    private String leaderId;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    private final Set<String> pendingMembers = new HashSet<>();
    /** Set while an empty group's first rebalance waits group.initial.rebalance.delay.ms for more members. */
    private boolean initialRebalance;
    /** Set when a member joins during the initial delay, which then waits once more (up to the rebalance timeout). */
    private boolean newMemberAdded;

    ClassicGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.currentStateTimestampMs = nowMs;
    }

    String groupId() {
        return groupId;
    }

    GroupState state() {
        return state;
    }

    boolean isIn(GroupState candidate) {
        return state == candidate;
    }

    void transitionTo(GroupState next, long nowMs) {
        state = next;
        currentStateTimestampMs = nowMs;
    }

    long currentStateTimestampMs() {
        return currentStateTimestampMs;
    }

    int generationId() {
        return generationId;
    }

    String protocolType() {
        return protocolType;
    }

    String protocolName() {
        return protocolName;
    }

    String leaderId() {
        return leaderId;
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    boolean initialRebalance() {
        return initialRebalance;
    }

    void setInitialRebalance(boolean waiting) {
        this.initialRebalance = waiting;
    }

    boolean newMemberAdded() {
        return newMemberAdded;
    }

    void setNewMemberAdded(boolean added) {
        this.newMemberAdded = added;
    }

    /** Restores what a GroupMetadata record says (replay). */
    void restore(GroupState restoredState, int restoredGeneration, String restoredProtocolType,
                 String restoredProtocolName, String restoredLeader, long stateTimestampMs) {
        this.state = restoredState;
        this.generationId = restoredGeneration;
        this.protocolType = restoredProtocolType;
        this.protocolName = restoredProtocolName;
        this.leaderId = restoredLeader;
        this.currentStateTimestampMs = stateTimestampMs;
    }

    Collection<Member> members() {
        return members.values();
    }

    int size() {
        return members.size();
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    Member member(String memberId) {
        return members.get(memberId);
    }

    boolean hasMember(String memberId) {
        return members.containsKey(memberId);
    }

    /** The member id a static member's instance id currently stands for, or null. */
    String staticMemberId(String groupInstanceId) {
        return groupInstanceId == null ? null : staticMembers.get(groupInstanceId);
    }

    void add(Member member) {
        members.put(member.memberId(), member);
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId(), member.memberId());
        }
        if (leaderId == null) {
            leaderId = member.memberId();
        }
    }

    void setProtocolType(String type) {
        this.protocolType = type;
    }

    /** Removes a member; a leader that leaves hands the role to the next member (or none). */
    Member remove(String memberId) {
        Member removed = members.remove(memberId);
        if (removed == null) {
            return null;
        }
        if (removed.isStatic() && memberId.equals(staticMembers.get(removed.groupInstanceId()))) {
            staticMembers.remove(removed.groupInstanceId());
        }
        if (memberId.equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
        return removed;
    }

    /**
     * A static member came back with a new member id: the new one takes the old one's place (its
     * assignment and, if it led, the leadership). Returns the old member.
     */
    Member replaceStatic(String oldMemberId, Member replacement) {
        Member old = members.remove(oldMemberId);
        replacement.setAssignment(old.assignment());
        members.put(replacement.memberId(), replacement);
        staticMembers.put(replacement.groupInstanceId(), replacement.memberId());
        if (oldMemberId.equals(leaderId)) {
            leaderId = replacement.memberId();
        }
        return old;
    }

    Set<String> pendingMembers() {
        return pendingMembers;
    }

    /** Whether every member has sent its JoinGroup for this rebalance and no new member is half-way in. */
    boolean hasAllMembersJoined() {
        for (Member member : members.values()) {
            if (!member.isAwaitingJoin()) {
                return false;
            }
        }
        return pendingMembers.isEmpty();
    }

    /** The longest rebalance timeout of the members: how long a rebalance waits for them to rejoin. */
    int maxRebalanceTimeoutMs() {
        int max = 0;
        for (Member member : members.values()) {
            max = Math.max(max, member.rebalanceTimeoutMs());
        }
        return max;
    }

    /**
     * Whether a member with this protocol type and these protocols may join: into an empty group any
     * non-empty type and list; otherwise the same type and at least one protocol every member supports.
     */
    boolean supportsProtocols(String memberProtocolType, Collection<String> memberProtocols) {
        if (memberProtocolType == null || memberProtocolType.isEmpty() || memberProtocols.isEmpty()) {
            return false;
        }
        if (members.isEmpty()) {
            return true;
        }
        if (!memberProtocolType.equals(protocolType)) {
            return false;
        }
        Set<String> candidates = candidateProtocols();
        for (String protocol : memberProtocols) {
            if (candidates.contains(protocol)) {
                return true;
            }
        }
        return false;
    }

    /** The protocols every member supports. */
    private Set<String> candidateProtocols() {
        Set<String> candidates = null;
        for (Member member : members.values()) {
            Set<String> names = new HashSet<>();
            member.protocols().forEach(protocol -> names.add(protocol.name()));
            if (candidates == null) {
                candidates = names;
            } else {
                candidates.retainAll(names);
            }
        }
        return candidates == null ? Set.of() : candidates;
    }

    /**
     * Chooses the protocol of the next generation: each member votes for its most preferred protocol
     * among those all members support; most votes wins, ties go to the one first voted for.
     */
    String selectProtocol() {
        Set<String> candidates = candidateProtocols();
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (Member member : members.values()) {
            for (MemberProtocol protocol : member.protocols()) {
                if (candidates.contains(protocol.name())) {
                    votes.merge(protocol.name(), 1, Integer::sum);
                    break;
                }
            }
        }
        String chosen = null;
        int most = 0;
        for (Map.Entry<String, Integer> vote : votes.entrySet()) {
            if (vote.getValue() > most) {
                chosen = vote.getKey();
                most = vote.getValue();
            }
        }
        return chosen;
    }

    /** Starts the next generation: a new id, the chosen protocol, and the next state. */
    void initNextGeneration(long nowMs) {
        generationId++;
        if (members.isEmpty()) {
            protocolName = null;
            transitionTo(GroupState.EMPTY, nowMs);
        } else {
            protocolName = selectProtocol();
            transitionTo(GroupState.COMPLETING_REBALANCE, nowMs);
        }
    }

    @Override
    public String toString() {
        return "ClassicGroup(" + groupId + ", " + state.displayName() + ", generation " + generationId + ", "
                + members.size() + " members)";
    }
}
