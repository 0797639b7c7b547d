package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData.ClassicMemberMetadata;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ConsumerGroupHeartbeat (KIP-848) for the groups of one shard: a member joins with epoch 0, heartbeats with the
 * epoch it was given and leaves with -1 (-2 for a static member). Each heartbeat may change the member (its
 * subscription), bump the group's epoch (a member joined, left or changed its subscription, or a subscribed topic's
 * partitions changed), compute a new target assignment ({@link ServerAssignor}) and move the member one step
 * towards its share ({@link MemberReconciliation}); every change is a record written before the answer. A member
 * silent for {@code group.consumer.session.timeout.ms}, or still holding partitions it was asked to revoke after its
 * rebalance timeout, is fenced: it leaves as if it had asked. Not thread-safe: owned by the coordinator thread.
 */
final class ConsumerGroupHeartbeats {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupHeartbeats.class);
    static final int LEAVE_EPOCH = -1;
    static final int STATIC_LEAVE_EPOCH = -2;
    /** How soon a fencing whose records could not be written is tried again. */
    private static final long FENCE_RETRY_MS = 1_000;

    private final GroupCoordinatorShard shard;
    private final Function<String, TopicImage> topics;
    private final TopicRegexes regexes;

    ConsumerGroupHeartbeats(GroupCoordinatorShard shard, Function<String, TopicImage> topics, TopicRegexes regexes) {
        this.shard = shard;
        this.topics = topics;
        this.regexes = regexes;
    }

    /** The answer to one heartbeat of {@code clientId} at {@code clientHost}. */
    ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroupHeartbeatRequestData request, String clientId,
                                                 String clientHost) {
        return heartbeat(request, clientId, clientHost, topic -> true);
    }

    /**
     * The answer to one heartbeat of {@code clientId} at {@code clientHost}, whose principal may describe the topics
     * {@code describable} accepts: a regular expression the group resolves meanwhile keeps only those (a member must
     * not learn of topics it may not see through its group's assignment).
     */
    ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroupHeartbeatRequestData request, String clientId,
                                                 String clientHost, Predicate<String> describable) {
        String invalid = HeartbeatRequestCheck.problem(request);
        if (invalid != null) {
            return error(Errors.INVALID_REQUEST, invalid);
        }
        List<String> assignors = shard.settings().consumer().assignors();
        if (request.serverAssignor() != null && !assignors.contains(request.serverAssignor())) {
            return error(Errors.UNSUPPORTED_ASSIGNOR, "Assignor " + request.serverAssignor()
                    + " is not supported; supported: " + String.join(", ", assignors));
        }
        // librdkafka sends an empty expression when it subscribes by names: Kafka reads that as none.
        String regex = request.subscribedTopicRegex();
        String regexProblem = regex == null || regex.isEmpty() ? null : TopicRegexes.problem(regex);
        if (regexProblem != null) {
            return error(Errors.INVALID_REGULAR_EXPRESSION, "SubscribedTopicRegex `" + regex
                    + "` is not a valid regular expression: " + regexProblem);
        }
        String groupId = request.groupId();
        ClassicGroup classic = shard.group(groupId);
        if (classic != null && (classic.protocolType() != null || !classic.isEmpty()
                || !classic.pendingMembers().isEmpty())) {
            if (request.memberEpoch() != 0) {
                // Only a member joining moves a group to this protocol; any other is not a member of it.
                return error(Errors.UNKNOWN_MEMBER_ID, "Group " + groupId + " is a classic group");
            }
            Errors upgrade = shard.migration().upgrade(classic);
            if (upgrade != Errors.NONE) {
                return error(upgrade, upgrade == Errors.GROUP_ID_NOT_FOUND ? "Group " + groupId + " is a classic "
                        + "group that cannot become a consumer group (group.consumer.migration.policy, its protocol "
                        + "type, or its size)" : null);
            }
        }
        return memberHeartbeat(groupId, shard.consumerGroup(groupId, false), request, null, clientId, clientHost,
                describable);
    }

    /**
     * A heartbeat of a member of the group (null if it does not exist yet): a consumer-protocol member's, or, with
     * {@code classic} set, the heartbeat a classic member's JoinGroup stands for (its subscription and the partitions
     * it owns), which moves it on just as a heartbeat moves a consumer-protocol member.
     */
    ConsumerGroupHeartbeatResponseData memberHeartbeat(String groupId, ConsumerGroup group,
                                                       ConsumerGroupHeartbeatRequestData request,
                                                       ClassicMemberMetadata classic, String clientId,
                                                       String clientHost, Predicate<String> describable) {
        ConsumerGroupHeartbeatResponseData refused = checkInstance(group, request);
        if (refused != null) {
            return refused;
        }
        if (request.memberEpoch() < 0) {
            return leave(group, request.memberId(), request.memberEpoch());
        }
        // A static member coming back within its session takes over its instance's earlier member and partitions.
        ConsumerGroupMember holder = request.instanceId() == null || group == null ? null
                : group.staticMember(request.instanceId());
        ConsumerGroupMember replaced = request.memberEpoch() == 0 && holder != null && holder.isAway() ? holder : null;
        ConsumerGroupMember member = replaced != null || group == null ? null : group.member(request.memberId());
        Errors fenced = checkEpoch(member, request);
        if (fenced != null) {
            return error(fenced, "Member " + request.memberId() + " of group " + groupId + " at epoch "
                    + request.memberEpoch() + (member == null ? " is unknown" : " is not at epoch "
                    + member.memberEpoch()));
        }
        if (member == null && replaced == null && group != null
                && group.members().size() >= shard.settings().consumer().maxSize()) {
            return error(Errors.GROUP_MAX_SIZE_REACHED, "Group " + groupId + " has its most members");
        }
        boolean created = group == null;
        if (created) {
            group = shard.consumerGroup(groupId, true);
        }
        ConsumerGroupHeartbeatResponseData answer = heartbeat(group, member, replaced, request, classic, clientId,
                clientHost, describable);
        if (created && answer.errorCode() != Errors.NONE.code() && group.isEmpty()) {
            shard.removeConsumerGroup(groupId);
        }
        return answer;
    }

    /**
     * One heartbeat of a known {@code member}, of a new one (null), or of a static member taking over from the member
     * {@code replaced} that its instance left with epoch -2: it gets that member's partitions and target share, and
     * the group no new epoch unless its subscription differs.
     */
    private ConsumerGroupHeartbeatResponseData heartbeat(ConsumerGroup group, ConsumerGroupMember member,
                                                         ConsumerGroupMember replaced,
                                                         ConsumerGroupHeartbeatRequestData request,
                                                         ClassicMemberMetadata classic, String clientId,
                                                         String clientHost, Predicate<String> describable) {
        String groupId = group.groupId();
        ConsumerGroupMember known = member != null ? member : replaced != null
                ? replaced.replacedBy(request.memberId()) : ConsumerGroupMember.unknown(request.memberId());
        ConsumerGroupMember updated = withRequest(known, request, clientId, clientHost);
        if (classic != null) {
            updated = updated.withClassicMetadata(classic);
        }
        List<CoordinatorRecord> records = new ArrayList<>();
        Map<String, ConsumerGroupMember> members = group.membersById();
        Map<String, PartitionAssignment> targets = new HashMap<>(group.targetAssignment());
        if (replaced != null) {
            records.addAll(removalRecords(groupId, replaced.memberId()));
            members.remove(replaced.memberId());
            PartitionAssignment share = targets.remove(replaced.memberId());
            if (share != null) {
                targets.put(updated.memberId(), share);
                records.add(ConsumerGroupRecords.target(groupId, updated.memberId(), share));
            }
        }
        if (member == null || !updated.equals(known)) {
            records.add(ConsumerGroupRecords.member(groupId, updated));
        }
        members.put(updated.memberId(), updated);
        RegexResolution regexTopics = resolveRegexes(group, members.values(), describable);
        records.addAll(regexTopics.records());
        long hash = subscriptionHash(members.values(), regexTopics.topics());
        int groupEpoch = group.groupEpoch();
        if (member == null && replaced == null || !updated.subscribedTopicNames().equals(known.subscribedTopicNames())
                || !Objects.equals(updated.subscribedTopicRegex(), known.subscribedTopicRegex())
                || hash != group.metadataHash()) {
            groupEpoch++;
            records.add(ConsumerGroupRecords.groupEpoch(groupId, groupEpoch, hash));
        }
        int targetEpoch = group.assignmentEpoch();
        if (groupEpoch > targetEpoch) {
            targetEpoch = groupEpoch;
            assignTargets(group, members, targets, records, targetEpoch, regexTopics.topics());
        }
        PartitionAssignment owned = request.topicPartitions() == null ? null : PartitionAssignment.of(
                request.topicPartitions(), ConsumerGroupHeartbeatRequestData.TopicPartitions::topicId,
                ConsumerGroupHeartbeatRequestData.TopicPartitions::partitions);
        ConsumerGroupMember reconciled = MemberReconciliation.reconcile(updated, targetEpoch,
                targets.getOrDefault(updated.memberId(), PartitionAssignment.EMPTY), owned, group::partitionEpoch);
        boolean reassigned = member == null || !sameAssignment(reconciled, known);
        if (reassigned) {
            records.add(ConsumerGroupRecords.currentAssignment(groupId, reconciled));
        }
        if (!records.isEmpty() && !shard.write(records)) {
            return error(Errors.NOT_COORDINATOR, null);
        }
        if (replaced != null && !replaced.memberId().equals(reconciled.memberId())) {
            shard.timer().cancel(sessionKey(groupId, replaced.memberId()));
        }
        scheduleSession(groupId, reconciled.memberId());
        if (reassigned) {
            scheduleRevocation(groupId, reconciled);
        }
        ConsumerGroupHeartbeatResponseData answer = new ConsumerGroupHeartbeatResponseData()
                .setMemberId(reconciled.memberId()).setMemberEpoch(reconciled.memberEpoch())
                .setHeartbeatIntervalMs(shard.settings().consumer().heartbeatIntervalMs());
        if (request.memberEpoch() == 0 || isFull(request) || !reconciled.assigned().equals(known.assigned())) {
            answer.setAssignment(new ConsumerGroupHeartbeatResponseData.Assignment().setTopicPartitions(
                    reconciled.assigned().toList((topicId, numbers) -> new ConsumerGroupHeartbeatResponseData
                            .TopicPartitions().setTopicId(topicId).setPartitions(numbers))));
        }
        return answer;
    }

    /**
     * The member's answer to a leave: with -1 it leaves and the others get a new target; a static member leaving
     * with -2 is away, keeping its partitions (owned, no longer fetched) for its instance's next member until its
     * session timeout, so that a restart does not move them.
     */
    private ConsumerGroupHeartbeatResponseData leave(ConsumerGroup group, String memberId, int epoch) {
        ConsumerGroupMember member = group == null ? null : group.member(memberId);
        if (member == null) {
            return error(Errors.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not in the group");
        }
        if (epoch == STATIC_LEAVE_EPOCH && member.instanceId() != null) {
            if (member.isAway()) {
                return new ConsumerGroupHeartbeatResponseData().setMemberId(memberId).setMemberEpoch(epoch);
            }
            ConsumerGroupMember away = member.withAssignment(STATIC_LEAVE_EPOCH, member.memberEpoch(),
                    MemberState.STABLE, member.assigned(), PartitionAssignment.EMPTY, member.assignmentEpochs());
            if (!shard.write(List.of(ConsumerGroupRecords.currentAssignment(group.groupId(), away)))) {
                return error(Errors.NOT_COORDINATOR, null);
            }
            shard.timer().cancel(revocationKey(group.groupId(), memberId));
            scheduleSession(group.groupId(), memberId);
            return new ConsumerGroupHeartbeatResponseData().setMemberId(memberId).setMemberEpoch(epoch);
        }
        if (!remove(group, memberId)) {
            return error(Errors.NOT_COORDINATOR, null);
        }
        return new ConsumerGroupHeartbeatResponseData().setMemberId(memberId).setMemberEpoch(epoch);
    }

    /**
     * The answer refusing a static member's heartbeat, or null. An instance id names one member at a time: another
     * member joining under it while that one is active gets UNRELEASED_INSTANCE_ID; a heartbeat or leave under it
     * from a member that is not the one it names (replaced by a newer one) gets FENCED_INSTANCE_ID.
     */
    private static ConsumerGroupHeartbeatResponseData checkInstance(ConsumerGroup group,
                                                                    ConsumerGroupHeartbeatRequestData request) {
        String instanceId = request.instanceId();
        if (instanceId == null) {
            return null;
        }
        ConsumerGroupMember holder = group == null ? null : group.staticMember(instanceId);
        if (request.memberEpoch() == 0) {
            if (holder != null && !holder.memberId().equals(request.memberId()) && !holder.isAway()) {
                return error(Errors.UNRELEASED_INSTANCE_ID, "Static member " + request.memberId()
                        + " with instance id " + instanceId + " cannot join the group because the instance id is"
                        + " owned by member " + holder.memberId());
            }
            return null;
        }
        if (holder == null) {
            return error(Errors.UNKNOWN_MEMBER_ID, "Instance id " + instanceId + " is unknown");
        }
        if (!holder.memberId().equals(request.memberId())) {
            return error(Errors.FENCED_INSTANCE_ID, "Static member " + request.memberId() + " with instance id "
                    + instanceId + " was replaced by member " + holder.memberId());
        }
        return null;
    }

    /**
     * Removes a member that left or was fenced, and gives its partitions to the others; false if not written. When
     * the last consumer-protocol member of a group whose other members use the classic protocol leaves, the group
     * becomes a classic group instead (Kafka's online downgrade).
     */
    boolean remove(ConsumerGroup group, String memberId) {
        String groupId = group.groupId();
        GroupMigration.Outcome downgrade = shard.migration().maybeDowngrade(group, memberId);
        if (downgrade != GroupMigration.Outcome.NOT_APPLICABLE) {
            if (downgrade == GroupMigration.Outcome.FAILED) {
                return false;
            }
            cancelTimers(group, memberId);
            return true;
        }
        List<CoordinatorRecord> records = new ArrayList<>(removalRecords(groupId, memberId));
        Map<String, ConsumerGroupMember> members = group.membersById();
        members.remove(memberId);
        RegexResolution regexTopics = resolveRegexes(group, members.values(), null);
        records.addAll(regexTopics.records());
        int groupEpoch = group.groupEpoch() + 1;
        records.add(ConsumerGroupRecords.groupEpoch(groupId, groupEpoch,
                subscriptionHash(members.values(), regexTopics.topics())));
        Map<String, PartitionAssignment> targets = new HashMap<>(group.targetAssignment());
        targets.remove(memberId);
        assignTargets(group, members, targets, records, groupEpoch, regexTopics.topics());
        if (!shard.write(records)) {
            return false;
        }
        cancelTimers(group, memberId);
        return true;
    }

    /** Cancels the timers of the member of a group: its session, and its revocation if one is under way. */
    void cancelTimers(ConsumerGroup group, String memberId) {
        shard.timer().cancel(sessionKey(group.groupId(), memberId));
        shard.timer().cancel(revocationKey(group.groupId(), memberId));
    }

    /** The tombstones of a member's records: its current assignment, its target share and its metadata. */
    private static List<CoordinatorRecord> removalRecords(String groupId, String memberId) {
        return List.of(ConsumerGroupRecords.currentAssignmentTombstone(groupId, memberId),
                ConsumerGroupRecords.targetTombstone(groupId, memberId),
                ConsumerGroupRecords.memberTombstone(groupId, memberId));
    }

    /** Starts the timers of members restored by replay: their sessions, and revocations still under way. */
    void onLoaded(ConsumerGroup group) {
        for (ConsumerGroupMember member : group.members()) {
            scheduleSession(group.groupId(), member.memberId());
            scheduleRevocation(group.groupId(), member);
        }
    }

    /**
     * The member leaves unless it heartbeats again within its session timeout: the group's, or for a classic member
     * the one it joined with.
     */
    void scheduleSession(String groupId, String memberId) {
        String key = sessionKey(groupId, memberId);
        ConsumerGroup group = shard.consumerGroup(groupId, false);
        ConsumerGroupMember member = group == null ? null : group.member(memberId);
        int timeoutMs = member != null && member.usesClassicProtocol() ? member.classicMetadata().sessionTimeoutMs()
                : shard.settings().consumer().sessionTimeoutMs();
        shard.timer().schedule(key, timeoutMs, () -> fence(key, groupId, memberId, -1,
                "no heartbeat within its session timeout"));
    }

    /**
     * A member just asked to revoke partitions must have done so within its rebalance timeout, or it leaves; armed
     * when it is asked (not again at each heartbeat, which would put the deadline off forever), cancelled when it
     * moves on.
     */
    private void scheduleRevocation(String groupId, ConsumerGroupMember member) {
        String key = revocationKey(groupId, member.memberId());
        if (member.state() != MemberState.UNREVOKED_PARTITIONS) {
            shard.timer().cancel(key);
            return;
        }
        shard.timer().schedule(key, Math.max(member.rebalanceTimeoutMs(), 0), () -> fence(key, groupId,
                member.memberId(), member.memberEpoch(), "partitions not revoked within its rebalance timeout"));
    }

    /**
     * Removes a member whose timer {@code key} ran out, if it is still there (and, for a revocation, still revoking
     * at {@code revokingEpoch}); a failed write is tried again shortly, or the member would keep its partitions.
     */
    private void fence(String key, String groupId, String memberId, int revokingEpoch, String why) {
        ConsumerGroup group = shard.consumerGroup(groupId, false);
        ConsumerGroupMember member = group == null ? null : group.member(memberId);
        if (member == null || revokingEpoch >= 0 && (member.state() != MemberState.UNREVOKED_PARTITIONS
                || member.memberEpoch() != revokingEpoch)) {
            return;
        }
        LOG.info("Removing member {} from group {}: {}", memberId, groupId, why);
        if (!remove(group, memberId)) {
            shard.timer().schedule(key, FENCE_RETRY_MS, () -> fence(key, groupId, memberId, revokingEpoch, why));
        }
    }

    /**
     * A new target for {@code members}: the records of each member's changed share and of the target's epoch,
     * applied to {@code targets} too.
     */
    private void assignTargets(ConsumerGroup group, Map<String, ConsumerGroupMember> members,
                               Map<String, PartitionAssignment> targets, List<CoordinatorRecord> records, int epoch,
                               Map<String, Set<String>> regexTopics) {
        Map<Uuid, Integer> partitionCounts = new HashMap<>();
        List<AssignmentMember> subscribers = new ArrayList<>();
        for (ConsumerGroupMember member : members.values()) {
            Set<Uuid> topicIds = new HashSet<>();
            for (String name : topicsOf(member, regexTopics)) {
                TopicImage topic = topics.apply(name);
                if (topic != null) {
                    topicIds.add(topic.id());
                    partitionCounts.put(topic.id(), topic.partitions().size());
                }
            }
            subscribers.add(new AssignmentMember(member.memberId(), topicIds,
                    targets.getOrDefault(member.memberId(), PartitionAssignment.EMPTY)));
        }
        ServerAssignor assignor = ServerAssignor.chosenBy(members.values(), shard.settings().consumer().assignors());
        assignor.assign(subscribers, partitionCounts).forEach((memberId, partitions) -> {
            if (!partitions.equals(targets.get(memberId))) {
                targets.put(memberId, partitions);
                records.add(ConsumerGroupRecords.target(group.groupId(), memberId, partitions));
            }
        });
        records.add(ConsumerGroupRecords.targetEpoch(group.groupId(), epoch, shard.nowMs()));
    }

    /** The topics the member subscribes to: by name, and those its regular expression stands for now. */
    private static Set<String> topicsOf(ConsumerGroupMember member, Map<String, Set<String>> regexTopics) {
        if (member.subscribedTopicRegex() == null) {
            return Set.copyOf(member.subscribedTopicNames());
        }
        Set<String> names = new HashSet<>(member.subscribedTopicNames());
        names.addAll(regexTopics.getOrDefault(member.subscribedTopicRegex(), Set.of()));
        return names;
    }

    /** What each regular expression the members use stands for now, and the records of those that changed. */
    private record RegexResolution(Map<String, Set<String>> topics, List<CoordinatorRecord> records) {
    }

    /**
     * Each expression the members use, as its record has it while the topics it matches are still those it was
     * resolved from; else resolved again, keeping the topics the heartbeating principal may describe ({@code
     * describable}; null for a removal no principal sent, which keeps the records as they are). An expression no
     * member uses any more gets a tombstone.
     */
    private RegexResolution resolveRegexes(ConsumerGroup group, Collection<ConsumerGroupMember> members,
                                           Predicate<String> describable) {
        Map<String, Set<String>> topics = new HashMap<>();
        List<CoordinatorRecord> records = new ArrayList<>();
        for (ConsumerGroupMember member : members) {
            String regex = member.subscribedTopicRegex();
            if (regex == null || topics.containsKey(regex)) {
                continue;
            }
            Set<String> matched = regexes.resolve(regex);
            long version = TopicRegexes.fingerprint(matched);
            ConsumerGroup.ResolvedRegex kept = group.regex(regex);
            if (kept != null && (kept.version() == version || describable == null)) {
                topics.put(regex, kept.topics());
                continue;
            }
            Set<String> visible = new HashSet<>();
            matched.stream().filter(describable == null ? name -> true : describable).forEach(visible::add);
            topics.put(regex, visible);
            records.add(ConsumerGroupRecords.regex(group.groupId(), regex, visible, version, shard.nowMs()));
        }
        for (String regex : group.regexes()) {
            if (!topics.containsKey(regex)) {
                records.add(ConsumerGroupRecords.regexTombstone(group.groupId(), regex));
            }
        }
        return new RegexResolution(topics, records);
    }

    /**
     * A fingerprint of what the members subscribe to as the metadata has it now (each topic's name, id and partition
     * count): when it changes, a topic was created, deleted or grew, and the group needs a new target.
     */
    long subscriptionHash(Iterable<ConsumerGroupMember> members) {
        return subscriptionHash(members, Map.of());
    }

    private long subscriptionHash(Iterable<ConsumerGroupMember> members, Map<String, Set<String>> regexTopics) {
        Set<String> names = new TreeSet<>();
        members.forEach(member -> names.addAll(topicsOf(member, regexTopics)));
        long hash = 1;
        for (String name : names) {
            TopicImage topic = topics.apply(name);
            hash = 31 * hash + name.hashCode();
            if (topic != null) {
                hash = 31 * hash + topic.id().hashCode();
                hash = 31 * hash + topic.partitions().size();
            }
        }
        return hash;
    }

    /**
     * NONE, or why a member's heartbeat at its epoch is refused: an unknown member (UNKNOWN_MEMBER_ID), or an epoch
     * the member is not at (FENCED_MEMBER_EPOCH). The previous epoch is accepted when the member owns nothing it was
     * not given (its last answer was lost).
     */
    private static Errors checkEpoch(ConsumerGroupMember member, ConsumerGroupHeartbeatRequestData request) {
        int epoch = request.memberEpoch();
        if (epoch == 0) {
            return null;
        }
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (epoch == member.memberEpoch()) {
            return null;
        }
        if (member.isAway()) {
            return Errors.FENCED_MEMBER_EPOCH;
        }
        boolean lostAnswer = epoch == member.previousMemberEpoch() && request.topicPartitions() != null
                && request.topicPartitions().stream().allMatch(owned -> owned.partitions().stream()
                .allMatch(partition -> member.assigned().contains(owned.topicId(), partition)));
        return lostAnswer ? null : Errors.FENCED_MEMBER_EPOCH;
    }

    /** The member with what the request says (a field left null keeps its value, as the client sends only changes). */
    private static ConsumerGroupMember withRequest(ConsumerGroupMember member,
                                                   ConsumerGroupHeartbeatRequestData request, String clientId,
                                                   String clientHost) {
        return new ConsumerGroupMember(member.memberId(),
                request.instanceId() != null ? request.instanceId() : member.instanceId(),
                request.rackId() != null ? request.rackId() : member.rackId(), clientId, clientHost,
                request.subscribedTopicNames() != null ? List.copyOf(new TreeSet<>(request.subscribedTopicNames()))
                        : member.subscribedTopicNames(), request.subscribedTopicRegex() == null
                        ? member.subscribedTopicRegex() : request.subscribedTopicRegex().isEmpty() ? null
                        : request.subscribedTopicRegex(),
                request.rebalanceTimeoutMs() != -1 ? request.rebalanceTimeoutMs() : member.rebalanceTimeoutMs(),
                request.serverAssignor() != null ? request.serverAssignor() : member.serverAssignor(),
                member.classicMetadata(), member.memberEpoch(), member.previousMemberEpoch(), member.state(),
                member.assigned(), member.pendingRevocation(), member.assignmentEpochs());
    }

    private static boolean sameAssignment(ConsumerGroupMember a, ConsumerGroupMember b) {
        return a.memberEpoch() == b.memberEpoch() && a.previousMemberEpoch() == b.previousMemberEpoch()
                && a.state() == b.state() && a.assigned().equals(b.assigned())
                && a.pendingRevocation().equals(b.pendingRevocation())
                && a.assignmentEpochs().equals(b.assignmentEpochs());
    }

    /** A request with every field a (re)joining member sends: it gets its whole assignment back. */
    private static boolean isFull(ConsumerGroupHeartbeatRequestData request) {
        return request.rebalanceTimeoutMs() != -1 && request.subscribedTopicNames() != null
                && request.topicPartitions() != null;
    }

    static ConsumerGroupHeartbeatResponseData error(Errors error, String message) {
        return new ConsumerGroupHeartbeatResponseData().setErrorCode(error.code()).setErrorMessage(message);
    }

    /** Timer keys: the group id's length first, so that no two (group, member) pairs make the same key. */
    private static String sessionKey(String groupId, String memberId) {
        return "consumer-session:" + groupId.length() + ":" + groupId + memberId;
    }

    private static String revocationKey(String groupId, String memberId) {
        return "consumer-revocation:" + groupId.length() + ":" + groupId + memberId;
    }

    @Override
    public String toString() {
        return "ConsumerGroupHeartbeats(" + shard + ")";
    }
}
