package dev.spool.broker.group;

import dev.spool.broker.metadata.TopicImage;
import dev.spool.protocol.Errors;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData.ClassicMemberMetadata;
import dev.spool.protocol.group.ConsumerGroupMemberMetadataValueData.ClassicProtocol;
import dev.spool.protocol.message.ConsumerProtocolSubscriptionData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A group moving between the protocols, as Kafka 4 moves it. An empty group takes the protocol of the next member to
 * join. A classic group with members becomes a consumer group when a consumer-protocol member joins (upgrade): each
 * classic member becomes a member of the consumer group at the classic generation, owning the partitions of its last
 * assignment, and goes on with the classic APIs ({@link ConsumerGroupClassicMembers}). A consumer group whose last
 * consumer-protocol member leaves while classic members remain becomes a classic group again (downgrade), which then
 * rebalances. Each change is written as records before it applies. Not thread-safe: owned by the coordinator thread.
 */
final class GroupMigration {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMigration.class);

    /** What a leave did about a downgrade. */
    enum Outcome { NOT_APPLICABLE, DONE, FAILED }

    private final GroupCoordinatorShard shard;

    GroupMigration(GroupCoordinatorShard shard) {
        this.shard = shard;
    }

    /**
     * Makes the classic group a consumer group for a consumer-protocol member about to join: NONE once done;
     * GROUP_ID_NOT_FOUND when it cannot be (the policy, a protocol type other than consumer's, or too many members);
     * COORDINATOR_LOAD_IN_PROGRESS, which the member retries, while the classic group rebalances (who holds what is
     * only known once it is stable); NOT_COORDINATOR if the records were not written.
     */
    Errors upgrade(ClassicGroup classic) {
        String groupId = classic.groupId();
        boolean empty = classic.isIn(GroupState.EMPTY) && classic.pendingMembers().isEmpty();
        if (empty) {
            if (!shard.write(List.of(CoordinatorRecord.groupTombstone(groupId)))) {
                return Errors.NOT_COORDINATOR;
            }
            LOG.info("Converted empty classic group {} to a consumer group", groupId);
            return Errors.NONE;
        }
        ConsumerProtocolSettings settings = shard.settings().consumer();
        if (!settings.migrationPolicy().upgrades() || !GroupAdministration.CONSUMER_TYPE.equals(classic.protocolType())
                || classic.size() >= settings.maxSize()) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        if (!classic.isIn(GroupState.STABLE) || !classic.pendingMembers().isEmpty()) {
            return Errors.COORDINATOR_LOAD_IN_PROGRESS;
        }
        int epoch = classic.generationId();
        List<ConsumerGroupMember> members = new ArrayList<>();
        Set<String> claimed = new HashSet<>();
        for (Member member : classic.members()) {
            members.add(fromClassic(classic, member, epoch, claimed));
        }
        List<CoordinatorRecord> records = new ArrayList<>();
        records.add(CoordinatorRecord.groupTombstone(groupId));
        records.add(ConsumerGroupRecords.groupEpoch(groupId, epoch, shard.consumerHeartbeats().subscriptionHash(members)));
        for (ConsumerGroupMember member : members) {
            records.add(ConsumerGroupRecords.member(groupId, member));
            records.add(ConsumerGroupRecords.target(groupId, member.memberId(), member.assigned()));
            records.add(ConsumerGroupRecords.currentAssignment(groupId, member));
        }
        records.add(ConsumerGroupRecords.targetEpoch(groupId, epoch, shard.nowMs()));
        if (!shard.write(records)) {
            return Errors.NOT_COORDINATOR;
        }
        // Joins and syncs parked in the classic group are answered: the members join again, now into the consumer group.
        for (Member member : classic.members()) {
            member.completeJoin(ClassicGroupMembership.joinErrorResponse(Errors.REBALANCE_IN_PROGRESS,
                    member.memberId()));
            member.completeSync(ClassicGroupMembership.syncError(Errors.REBALANCE_IN_PROGRESS));
        }
        shard.membership().cancelTimers(classic);
        shard.consumerHeartbeats().onLoaded(shard.consumerGroup(groupId, false));
        LOG.info("Converted classic group {} with {} members at generation {} to a consumer group", groupId,
                members.size(), epoch);
        return Errors.NONE;
    }

    /**
     * Makes the consumer group a classic group if {@code leavingMemberId} is its last consumer-protocol member and
     * classic members remain (and the policy allows, and they share a protocol): the leaving member's records and the
     * group's are deleted and the classic group's generation written in one append; the classic group then
     * rebalances, its members rejoining with the classic protocol.
     */
    Outcome maybeDowngrade(ConsumerGroup group, String leavingMemberId) {
        ConsumerGroupMember leaving = group.member(leavingMemberId);
        List<ConsumerGroupMember> staying = new ArrayList<>();
        for (ConsumerGroupMember member : group.members()) {
            if (!member.memberId().equals(leavingMemberId)) {
                staying.add(member);
            }
        }
        if (leaving == null || leaving.usesClassicProtocol() || staying.isEmpty()
                || !staying.stream().allMatch(ConsumerGroupMember::usesClassicProtocol)
                || !shard.settings().consumer().migrationPolicy().downgrades()
                || staying.size() > shard.settings().maxSize()) {
            return Outcome.NOT_APPLICABLE;
        }
        String protocol = ConsumerGroupMember.firstProtocolAllSupport(staying.get(0).classicMetadata()
                .supportedProtocols().stream().map(ClassicProtocol::name).toList(), staying);
        if (protocol == null) {
            return Outcome.NOT_APPLICABLE;
        }
        Map<Uuid, String> names = ConsumerGroupDescriber.topicNames(shard, group);
        ClassicGroup classic = new ClassicGroup(group.groupId(), shard.nowMs());
        for (ConsumerGroupMember member : staying) {
            List<MemberProtocol> protocols = new ArrayList<>();
            member.classicMetadata().supportedProtocols().forEach(supported ->
                    protocols.add(new MemberProtocol(supported.name(), supported.metadata())));
            Member classicMember = new Member(member.memberId(), member.instanceId(), member.clientId(),
                    member.clientHost(), member.rebalanceTimeoutMs(), member.classicMetadata().sessionTimeoutMs(),
                    protocols);
            classicMember.setAssignment(ConsumerProtocolBytes.assignment(member.assigned(), names));
            classic.add(classicMember);
        }
        classic.restore(GroupState.STABLE, group.groupEpoch(), GroupAdministration.CONSUMER_TYPE, protocol,
                staying.get(0).memberId(), shard.nowMs());
        List<CoordinatorRecord> records = new ArrayList<>(ConsumerGroupRecords.deletion(group));
        records.add(GroupCoordinatorShard.groupMetadataRecord(classic));
        if (!shard.write(records)) {
            return Outcome.FAILED;
        }
        staying.forEach(member -> shard.consumerHeartbeats().cancelTimers(group, member.memberId()));
        shard.adopt(classic);
        shard.membership().onConverted(classic);
        LOG.info("Converted consumer group {} to a classic group of {} members as its last consumer-protocol member "
                + "{} left", group.groupId(), staying.size(), leavingMemberId);
        return Outcome.DONE;
    }

    /**
     * A classic member as a member of the consumer group at {@code epoch}, owning the unclaimed partitions of its
     * assignment and of those its subscription says it owns (a cooperative member may still hold ones it is giving
     * up).
     */
    private ConsumerGroupMember fromClassic(ClassicGroup classic, Member member, int epoch, Set<String> claimed) {
        byte[] metadata = classic.protocolName() == null ? null : member.metadata(classic.protocolName());
        ConsumerProtocolSubscriptionData subscription = ConsumerProtocolBytes.subscription(metadata != null ? metadata
                : member.protocols().get(0).metadata());
        Map<String, List<Integer>> held = new HashMap<>(ConsumerProtocolBytes.assignment(member.assignment()));
        if (subscription != null) {
            subscription.ownedPartitions().forEach(topic -> held.merge(topic.topic(), topic.partitions(),
                    (assigned, owning) -> {
                        List<Integer> both = new ArrayList<>(assigned);
                        owning.stream().filter(partition -> !assigned.contains(partition)).forEach(both::add);
                        return both;
                    }));
        }
        Map<Uuid, List<Integer>> owned = new HashMap<>();
        held.forEach((topic, partitions) -> {
            TopicImage image = shard.topic(topic);
            for (int partition : image == null ? List.<Integer>of() : partitions) {
                // A partition two members were both given (a broken client assignor) goes to the first only.
                if (claimed.add(topic + "-" + partition)) {
                    owned.computeIfAbsent(image.id(), id -> new ArrayList<>()).add(partition);
                }
            }
        });
        PartitionAssignment assigned = PartitionAssignment.of(owned);
        return new ConsumerGroupMember(member.memberId(), member.groupInstanceId(),
                subscription == null ? null : subscription.rackId(), member.clientId(), member.clientHost(),
                subscription == null ? List.of() : List.copyOf(new TreeSet<>(subscription.topics())), null,
                member.rebalanceTimeoutMs(), null, classicMetadata(member.sessionTimeoutMs(), member.protocols()),
                epoch, epoch, MemberState.STABLE, assigned, PartitionAssignment.EMPTY,
                AssignmentEpochs.EMPTY.forOwned(assigned, epoch));
    }

    /** What a consumer group keeps of a classic member: its session timeout and protocols. */
    static ClassicMemberMetadata classicMetadata(int sessionTimeoutMs, List<MemberProtocol> protocols) {
        List<ClassicProtocol> supported = new ArrayList<>();
        protocols.forEach(protocol -> supported.add(new ClassicProtocol().setName(protocol.name())
                .setMetadata(protocol.metadata())));
        return new ClassicMemberMetadata().setSessionTimeoutMs(sessionTimeoutMs).setSupportedProtocols(supported);
    }
}
