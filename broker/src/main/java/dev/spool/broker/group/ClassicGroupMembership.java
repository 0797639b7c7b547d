package dev.spool.broker.group;

import dev.spool.broker.coordinator.CoordinatorTimer;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.JoinGroupResponseData.JoinGroupResponseMember;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupRequestData.MemberIdentity;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.LeaveGroupResponseData.MemberResponse;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import dev.spool.protocol.message.SyncGroupResponseData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic group protocol of one shard: JoinGroup (with the MEMBER_ID_REQUIRED round trip of
 * KIP-394 from v4), SyncGroup, Heartbeat and LeaveGroup, static membership (KIP-345), the initial
 * rebalance delay, rebalance and session timeouts. A member waiting for the rebalance is parked: its
 * answer is a future completed when the rebalance completes or times out. Not thread-safe: owned by
 * the coordinator thread.
 */
final class ClassicGroupMembership {

    private static final Logger LOG = LoggerFactory.getLogger(ClassicGroupMembership.class);
    /** JoinGroup v4 added the member id round trip (KIP-394). */
    static final short FIRST_MEMBER_ID_REQUIRED_VERSION = 4;

    private final GroupCoordinatorShard shard;
    private final CoordinatorTimer timer;

    ClassicGroupMembership(GroupCoordinatorShard shard) {
        this.shard = shard;
        this.timer = shard.timer();
    }

    /** A join as the coordinator sees it: the request plus who sent it. */
    record JoinRequest(JoinGroupRequestData data, short version, String clientId, String clientHost) {

        int rebalanceTimeoutMs() {
            // JoinGroup v0 has no rebalance timeout: the session timeout serves as both.
            return version == 0 || data.rebalanceTimeoutMs() <= 0 ? data.sessionTimeoutMs() : data.rebalanceTimeoutMs();
        }

        List<MemberProtocol> protocols() {
            List<MemberProtocol> protocols = new ArrayList<>(data.protocols().size());
            for (JoinGroupRequestProtocol protocol : data.protocols()) {
                protocols.add(new MemberProtocol(protocol.name(), protocol.metadata()));
            }
            return protocols;
        }

        List<String> protocolNames() {
            List<String> names = new ArrayList<>(data.protocols().size());
            for (JoinGroupRequestProtocol protocol : data.protocols()) {
                names.add(protocol.name());
            }
            return names;
        }
    }

    CompletableFuture<JoinGroupResponseData> join(JoinRequest request) {
        JoinGroupRequestData data = request.data();
        String groupId = data.groupId();
        String memberId = data.memberId() == null ? "" : data.memberId();
        GroupSettings settings = shard.settings();
        if (groupId == null || groupId.isEmpty()) {
            return joinError(Errors.INVALID_GROUP_ID, memberId);
        }
        if (data.sessionTimeoutMs() < settings.minSessionTimeoutMs()
                || data.sessionTimeoutMs() > settings.maxSessionTimeoutMs()) {
            return joinError(Errors.INVALID_SESSION_TIMEOUT, memberId);
        }
        ConsumerGroup consumerGroup = shard.consumerGroup(groupId, false);
        if (consumerGroup != null) {
            if (!consumerGroup.isEmpty()) {
                // A consumer-protocol group (KIP-848) with members: the classic member joins it as such.
                return CompletableFuture.completedFuture(shard.classicMembers().join(consumerGroup, request));
            }
            // An empty consumer group becomes a classic group, keeping its offsets (Kafka's offline downgrade).
            if (!shard.write(ConsumerGroupRecords.deletion(consumerGroup))) {
                return joinError(Errors.NOT_COORDINATOR, memberId);
            }
            LOG.info("Converted empty consumer group {} to a classic group", groupId);
        }
        ClassicGroup group = shard.group(groupId);
        if (group == null) {
            if (!memberId.isEmpty()) {
                return joinError(Errors.UNKNOWN_MEMBER_ID, memberId);
            }
            group = shard.createGroup(groupId);
        }
        if (!group.supportsProtocols(data.protocolType(), request.protocolNames())) {
            shard.maybeForget(group);
            return joinError(Errors.INCONSISTENT_GROUP_PROTOCOL, memberId);
        }
        return memberId.isEmpty() ? joinUnknownMember(group, request) : joinKnownMember(group, memberId, request);
    }

    private CompletableFuture<JoinGroupResponseData> joinUnknownMember(ClassicGroup group, JoinRequest request) {
        String instanceId = request.data().groupInstanceId();
        String existingStatic = group.staticMemberId(instanceId);
        if (existingStatic == null && group.size() + group.pendingMembers().size() >= shard.settings().maxSize()) {
            shard.maybeForget(group);
            return joinError(Errors.GROUP_MAX_SIZE_REACHED, "");
        }
        String newMemberId = (instanceId != null ? instanceId : request.clientId()) + "-" + UUID.randomUUID();
        if (existingStatic != null) {
            return replaceStaticMember(group, existingStatic, newMemberId, request);
        }
        if (instanceId == null && request.version() >= FIRST_MEMBER_ID_REQUIRED_VERSION) {
            // KIP-394: the member learns its id first and joins with it, so a client that times out
            // and retries does not leave a ghost member behind.
            group.pendingMembers().add(newMemberId);
            timer.schedule(pendingKey(group, newMemberId), request.data().sessionTimeoutMs(),
                    () -> onPendingMemberExpired(group, newMemberId));
            return joinError(Errors.MEMBER_ID_REQUIRED, newMemberId);
        }
        return addMemberAndRebalance(group, newMemberId, request);
    }

    private CompletableFuture<JoinGroupResponseData> joinKnownMember(ClassicGroup group, String memberId,
                                                                     JoinRequest request) {
        if (group.pendingMembers().remove(memberId)) {
            timer.cancel(pendingKey(group, memberId));
            return addMemberAndRebalance(group, memberId, request);
        }
        Errors invalid = validateMember(group, memberId, request.data().groupInstanceId());
        if (invalid != null) {
            return joinError(invalid, memberId);
        }
        Member member = group.member(memberId);
        List<MemberProtocol> protocols = request.protocols();
        switch (group.state()) {
            case PREPARING_REBALANCE:
                return updateMemberAndRebalance(group, member, request);
            case COMPLETING_REBALANCE:
                if (member.sameProtocols(protocols)) {
                    // The member lost our JoinGroup answer and asks again: same answer.
                    return CompletableFuture.completedFuture(joinResponse(group, member));
                }
                return updateMemberAndRebalance(group, member, request);
            case STABLE:
                if (group.isLeader(memberId) || !member.sameProtocols(protocols)) {
                    // The leader rejoins when it sees a metadata change the assignment must follow.
                    return updateMemberAndRebalance(group, member, request);
                }
                return CompletableFuture.completedFuture(joinResponse(group, member));
            default:
                return joinError(Errors.UNKNOWN_MEMBER_ID, memberId);
        }
    }

    /** A known static member came back without its member id: the new id fences the old one. */
    private CompletableFuture<JoinGroupResponseData> replaceStaticMember(ClassicGroup group, String oldMemberId,
                                                                        String newMemberId, JoinRequest request) {
        JoinGroupRequestData data = request.data();
        Member replacement = new Member(newMemberId, data.groupInstanceId(), request.clientId(), request.clientHost(),
                request.rebalanceTimeoutMs(), data.sessionTimeoutMs(), request.protocols());
        boolean wasLeader = group.isLeader(oldMemberId);
        Member old = group.replaceStatic(oldMemberId, replacement);
        timer.cancel(sessionKey(group, oldMemberId));
        old.completeJoin(joinErrorResponse(Errors.FENCED_INSTANCE_ID, oldMemberId));
        old.completeSync(syncError(Errors.FENCED_INSTANCE_ID));
        scheduleSession(group, replacement);
        if (group.isIn(GroupState.STABLE) && old.sameProtocols(replacement.protocols())) {
            // Nothing about the assignment changes: the member gets the current generation back. A
            // leader also gets the members, told to skip the assignment (KIP-814): its SyncGroup in
            // the stable group returns the assignment it had.
            if (!shard.write(List.of(GroupCoordinatorShard.groupMetadataRecord(group)))) {
                return joinError(Errors.COORDINATOR_NOT_AVAILABLE, newMemberId);
            }
            return CompletableFuture.completedFuture(joinResponse(group, replacement).setSkipAssignment(wasLeader));
        }
        CompletableFuture<JoinGroupResponseData> answer = new CompletableFuture<>();
        replacement.setAwaitingJoin(answer);
        maybePrepareRebalance(group, "static member " + data.groupInstanceId() + " rejoined");
        return answer;
    }

    private CompletableFuture<JoinGroupResponseData> addMemberAndRebalance(ClassicGroup group, String memberId,
                                                                          JoinRequest request) {
        JoinGroupRequestData data = request.data();
        Member member = new Member(memberId, data.groupInstanceId(), request.clientId(), request.clientHost(),
                request.rebalanceTimeoutMs(), data.sessionTimeoutMs(), request.protocols());
        if (group.isEmpty()) {
            group.setProtocolType(data.protocolType());
        }
        CompletableFuture<JoinGroupResponseData> answer = new CompletableFuture<>();
        member.setAwaitingJoin(answer);
        group.add(member);
        if (group.initialRebalance()) {
            group.setNewMemberAdded(true);
        }
        scheduleSession(group, member);
        maybePrepareRebalance(group, "member " + memberId + " joined");
        return answer;
    }

    private CompletableFuture<JoinGroupResponseData> updateMemberAndRebalance(ClassicGroup group, Member member,
                                                                             JoinRequest request) {
        member.update(request.clientId(), request.clientHost(), request.rebalanceTimeoutMs(),
                request.data().sessionTimeoutMs(), request.protocols());
        CompletableFuture<JoinGroupResponseData> answer = new CompletableFuture<>();
        // A member that retries its join replaces the answer it was waiting for.
        member.completeJoin(joinErrorResponse(Errors.REBALANCE_IN_PROGRESS, member.memberId()));
        member.setAwaitingJoin(answer);
        maybePrepareRebalance(group, "member " + member.memberId() + " rejoined");
        return answer;
    }

    private void maybePrepareRebalance(ClassicGroup group, String reason) {
        switch (group.state()) {
            case EMPTY, STABLE, COMPLETING_REBALANCE -> prepareRebalance(group, reason);
            case PREPARING_REBALANCE -> maybeCompleteJoin(group);
            default -> {
            }
        }
    }

    private void prepareRebalance(ClassicGroup group, String reason) {
        if (group.isIn(GroupState.COMPLETING_REBALANCE)) {
            for (Member member : group.members()) {
                member.setAssignment(null);
                member.completeSync(syncError(Errors.REBALANCE_IN_PROGRESS));
            }
        }
        boolean wasEmpty = group.isIn(GroupState.EMPTY);
        group.transitionTo(GroupState.PREPARING_REBALANCE, shard.nowMs());
        LOG.info("Preparing to rebalance group {} in state {} with old generation {} (__consumer_offsets-{}) "
                + "(reason: {})", group.groupId(), group.state().displayName(), group.generationId(),
                shard.partition(), reason);
        int initialDelayMs = shard.settings().initialRebalanceDelayMs();
        if (wasEmpty && initialDelayMs > 0) {
            group.setInitialRebalance(true);
            group.setNewMemberAdded(false);
            int delayMs = Math.min(initialDelayMs, group.maxRebalanceTimeoutMs());
            scheduleInitialJoin(group, delayMs, group.maxRebalanceTimeoutMs() - delayMs);
        } else {
            timer.schedule(joinKey(group), group.maxRebalanceTimeoutMs(), () -> completeJoin(group));
            maybeCompleteJoin(group);
        }
    }

    /**
     * group.initial.rebalance.delay.ms: the first rebalance of an empty group waits for more members;
     * each wait in which one joined is followed by another, until the rebalance timeout is used up.
     */
    private void scheduleInitialJoin(ClassicGroup group, int delayMs, int remainingMs) {
        timer.schedule(joinKey(group), delayMs, () -> {
            if (group.newMemberAdded() && remainingMs > 0) {
                group.setNewMemberAdded(false);
                int nextDelayMs = Math.min(shard.settings().initialRebalanceDelayMs(), remainingMs);
                scheduleInitialJoin(group, nextDelayMs, remainingMs - nextDelayMs);
            } else {
                completeJoin(group);
            }
        });
    }

    private void maybeCompleteJoin(ClassicGroup group) {
        if (group.isIn(GroupState.PREPARING_REBALANCE) && !group.initialRebalance() && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    /** Ends the join phase: who did not rejoin is out, the next generation starts, every joiner is answered. */
    private void completeJoin(ClassicGroup group) {
        if (!group.isIn(GroupState.PREPARING_REBALANCE)) {
            return;
        }
        timer.cancel(joinKey(group));
        group.setInitialRebalance(false);
        for (Member member : new ArrayList<>(group.members())) {
            if (!member.isAwaitingJoin()) {
                LOG.info("Member {} of group {} did not rejoin in time and is removed", member.memberId(),
                        group.groupId());
                timer.cancel(sessionKey(group, member.memberId()));
                group.remove(member.memberId());
            }
        }
        group.initNextGeneration(shard.nowMs());
        if (group.isIn(GroupState.EMPTY)) {
            if (!shard.write(List.of(GroupCoordinatorShard.groupMetadataRecord(group)))) {
                LOG.error("The empty generation {} of group {} could not be written", group.generationId(),
                        group.groupId());
            }
            return;
        }
        LOG.info("Stabilized group {} generation {} with {} members (__consumer_offsets-{}), protocol {}",
                group.groupId(), group.generationId(), group.size(), shard.partition(), group.protocolName());
        for (Member member : group.members()) {
            member.completeJoin(joinResponse(group, member));
            scheduleSession(group, member);
        }
    }

    /** The JoinGroup answer for the current generation; the leader also gets every member's metadata. */
    private static JoinGroupResponseData joinResponse(ClassicGroup group, Member member) {
        List<JoinGroupResponseMember> members = new ArrayList<>();
        if (group.isLeader(member.memberId())) {
            for (Member each : group.members()) {
                members.add(new JoinGroupResponseMember()
                        .setMemberId(each.memberId())
                        .setGroupInstanceId(each.groupInstanceId())
                        .setMetadata(each.metadata(group.protocolName())));
            }
        }
        return new JoinGroupResponseData()
                .setErrorCode(Errors.NONE.code())
                .setGenerationId(group.generationId())
                .setProtocolType(group.protocolType())
                .setProtocolName(group.protocolName())
                .setLeader(group.leaderId())
                .setMemberId(member.memberId())
                .setMembers(members);
    }

    CompletableFuture<SyncGroupResponseData> sync(SyncGroupRequestData request, short version) {
        ConsumerGroup consumerGroup = shard.consumerGroup(request.groupId(), false);
        if (consumerGroup != null) {
            return CompletableFuture.completedFuture(shard.classicMembers().sync(consumerGroup, request));
        }
        ClassicGroup group = shard.group(request.groupId());
        if (group == null || group.isIn(GroupState.DEAD)) {
            return CompletableFuture.completedFuture(syncError(Errors.UNKNOWN_MEMBER_ID));
        }
        Errors invalid = validateMember(group, request.memberId(), request.groupInstanceId());
        if (invalid == null && request.generationId() != group.generationId()) {
            invalid = Errors.ILLEGAL_GENERATION;
        }
        if (invalid == null && ((request.protocolType() != null && !request.protocolType().equals(group.protocolType()))
                || (request.protocolName() != null && !request.protocolName().equals(group.protocolName())))) {
            invalid = Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (invalid != null) {
            return CompletableFuture.completedFuture(syncError(invalid));
        }
        Member member = group.member(request.memberId());
        switch (group.state()) {
            case PREPARING_REBALANCE:
                return CompletableFuture.completedFuture(syncError(Errors.REBALANCE_IN_PROGRESS));
            case STABLE:
                scheduleSession(group, member);
                return CompletableFuture.completedFuture(syncResponse(group, member));
            case COMPLETING_REBALANCE:
                CompletableFuture<SyncGroupResponseData> answer = new CompletableFuture<>();
                member.completeSync(syncError(Errors.REBALANCE_IN_PROGRESS));
                member.setAwaitingSync(answer);
                scheduleSession(group, member);
                if (group.isLeader(member.memberId())) {
                    completeSync(group, request.assignments());
                }
                return answer;
            default:
                return CompletableFuture.completedFuture(syncError(Errors.UNKNOWN_MEMBER_ID));
        }
    }

    /** The leader sent the assignment: write the generation, then hand every member its part. */
    private void completeSync(ClassicGroup group, List<SyncGroupRequestAssignment> assignments) {
        Map<String, byte[]> byMember = new HashMap<>();
        for (SyncGroupRequestAssignment assignment : assignments) {
            byMember.put(assignment.memberId(), assignment.assignment());
        }
        for (Member member : group.members()) {
            member.setAssignment(byMember.get(member.memberId()));
        }
        if (!shard.write(List.of(GroupCoordinatorShard.groupMetadataRecord(group)))) {
            for (Member member : group.members()) {
                member.setAssignment(null);
                member.completeSync(syncError(Errors.COORDINATOR_NOT_AVAILABLE));
            }
            prepareRebalance(group, "the group's generation could not be written");
            return;
        }
        group.transitionTo(GroupState.STABLE, shard.nowMs());
        for (Member member : group.members()) {
            member.completeSync(syncResponse(group, member));
        }
    }

    private static SyncGroupResponseData syncResponse(ClassicGroup group, Member member) {
        return new SyncGroupResponseData()
                .setErrorCode(Errors.NONE.code())
                .setProtocolType(group.protocolType())
                .setProtocolName(group.protocolName())
                .setAssignment(member.assignment());
    }

    Errors heartbeat(HeartbeatRequestData request) {
        ConsumerGroup consumerGroup = shard.consumerGroup(request.groupId(), false);
        if (consumerGroup != null) {
            return shard.classicMembers().heartbeat(consumerGroup, request);
        }
        ClassicGroup group = shard.group(request.groupId());
        if (group == null || group.isIn(GroupState.DEAD)) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        Errors invalid = validateMember(group, request.memberId(), request.groupInstanceId());
        if (invalid != null) {
            return invalid;
        }
        if (group.isIn(GroupState.EMPTY)) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (request.generationId() != group.generationId()) {
            return Errors.ILLEGAL_GENERATION;
        }
        scheduleSession(group, group.member(request.memberId()));
        return group.isIn(GroupState.PREPARING_REBALANCE) ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
    }

    LeaveGroupResponseData leave(LeaveGroupRequestData request, short version) {
        List<MemberIdentity> leaving = version < 3
                ? List.of(new MemberIdentity().setMemberId(request.memberId()))
                : request.members();
        ConsumerGroup consumerGroup = shard.consumerGroup(request.groupId(), false);
        if (consumerGroup != null) {
            return shard.classicMembers().leave(consumerGroup, request, version);
        }
        ClassicGroup group = shard.group(request.groupId());
        if (group == null || group.isIn(GroupState.DEAD)) {
            return new LeaveGroupResponseData().setErrorCode(Errors.UNKNOWN_MEMBER_ID.code());
        }
        List<MemberResponse> responses = new ArrayList<>();
        for (MemberIdentity identity : leaving) {
            Errors error = leaveOne(group, identity);
            responses.add(new MemberResponse()
                    .setMemberId(identity.memberId())
                    .setGroupInstanceId(identity.groupInstanceId())
                    .setErrorCode(error.code()));
        }
        LeaveGroupResponseData response = new LeaveGroupResponseData().setMembers(responses);
        if (version < 3) {
            response.setErrorCode(responses.get(0).errorCode());
        }
        return response;
    }

    Errors leaveOne(ClassicGroup group, MemberIdentity identity) {
        String memberId = identity.memberId() == null ? "" : identity.memberId();
        if (identity.groupInstanceId() != null) {
            String current = group.staticMemberId(identity.groupInstanceId());
            if (current == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!memberId.isEmpty() && !memberId.equals(current)) {
                return Errors.FENCED_INSTANCE_ID;
            }
            removeMemberAndUpdateGroup(group, group.member(current), "static member left");
            return Errors.NONE;
        }
        if (group.pendingMembers().remove(memberId)) {
            timer.cancel(pendingKey(group, memberId));
            maybeCompleteJoin(group);
            return Errors.NONE;
        }
        Member member = group.member(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        removeMemberAndUpdateGroup(group, member, "member " + memberId + " left the group");
        return Errors.NONE;
    }

    private void removeMemberAndUpdateGroup(ClassicGroup group, Member member, String reason) {
        member.completeJoin(joinErrorResponse(Errors.UNKNOWN_MEMBER_ID, member.memberId()));
        member.completeSync(syncError(Errors.UNKNOWN_MEMBER_ID));
        timer.cancel(sessionKey(group, member.memberId()));
        group.remove(member.memberId());
        switch (group.state()) {
            case STABLE, COMPLETING_REBALANCE -> prepareRebalance(group, reason);
            case PREPARING_REBALANCE -> maybeCompleteJoin(group);
            default -> {
            }
        }
    }

    /** A group that was a consumer group (a downgrade): its members' sessions start, and they rejoin. */
    void onConverted(ClassicGroup group) {
        for (Member member : group.members()) {
            scheduleSession(group, member);
        }
        prepareRebalance(group, "the group moved to the classic protocol");
    }

    /** Cancels the group's timers (its join, and its members' and pending members' sessions): it became a consumer group. */
    void cancelTimers(ClassicGroup group) {
        timer.cancel(joinKey(group));
        group.members().forEach(member -> timer.cancel(sessionKey(group, member.memberId())));
        group.pendingMembers().forEach(memberId -> timer.cancel(pendingKey(group, memberId)));
    }

    /** Restored members get a full session to come back and heartbeat. */
    void onLoaded(ClassicGroup group) {
        for (Member member : group.members()) {
            scheduleSession(group, member);
        }
    }

    /** Restarts a member's session timeout (a heartbeat, a join or sync, a commit). */
    void scheduleSession(ClassicGroup group, Member member) {
        String memberId = member.memberId();
        timer.schedule(sessionKey(group, memberId), member.sessionTimeoutMs(), () -> onSessionExpired(group, memberId));
    }

    private void onSessionExpired(ClassicGroup group, String memberId) {
        Member member = group.member(memberId);
        if (member == null || shard.group(group.groupId()) != group) {
            return;
        }
        if (member.isAwaitingJoin()) {
            // It is waiting for us; the rebalance completes or times out without its heartbeat.
            scheduleSession(group, member);
            return;
        }
        LOG.info("Member {} of group {} missed its session timeout of {} ms and is removed", memberId,
                group.groupId(), member.sessionTimeoutMs());
        removeMemberAndUpdateGroup(group, member, "session timeout of member " + memberId);
    }

    private void onPendingMemberExpired(ClassicGroup group, String memberId) {
        if (group.pendingMembers().remove(memberId)) {
            maybeCompleteJoin(group);
            shard.maybeForget(group);
        }
    }

    /**
     * Null if {@code memberId} (with {@code groupInstanceId}, if static) is a current member, else
     * the error: FENCED_INSTANCE_ID when the instance id now stands for another member id.
     */
    Errors validateMember(ClassicGroup group, String memberId, String groupInstanceId) {
        if (groupInstanceId != null) {
            String current = group.staticMemberId(groupInstanceId);
            if (current != null && !current.equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
        }
        return memberId != null && group.hasMember(memberId) ? null : Errors.UNKNOWN_MEMBER_ID;
    }

    /** Answers every parked JoinGroup and SyncGroup with {@code error}: the shard is being unloaded. */
    void answerParked(Errors error) {
        for (ClassicGroup group : shard.groups()) {
            for (Member member : group.members()) {
                member.completeJoin(joinErrorResponse(error, member.memberId()));
                member.completeSync(syncError(error));
            }
        }
    }

    private static CompletableFuture<JoinGroupResponseData> joinError(Errors error, String memberId) {
        return CompletableFuture.completedFuture(joinErrorResponse(error, memberId));
    }

    static JoinGroupResponseData joinErrorResponse(Errors error, String memberId) {
        return new JoinGroupResponseData()
                .setErrorCode(error.code())
                .setGenerationId(-1)
                .setProtocolName(null)
                .setLeader("")
                .setMemberId(memberId == null ? "" : memberId);
    }

    static SyncGroupResponseData syncError(Errors error) {
        return new SyncGroupResponseData().setErrorCode(error.code()).setAssignment(new byte[0]);
    }

    private static String joinKey(ClassicGroup group) {
        return "join:" + group.groupId();
    }

    private static String sessionKey(ClassicGroup group, String memberId) {
        return "session:" + group.groupId() + ":" + memberId;
    }

    private static String pendingKey(ClassicGroup group, String memberId) {
        return "pending:" + group.groupId() + ":" + memberId;
    }
}
