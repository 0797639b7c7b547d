package dev.spool.broker.group;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiFamily;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ConsumerGroupDescribeRequestData;
import dev.spool.protocol.message.ConsumerGroupDescribeResponseData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.ConsumerGroupHeartbeatResponseData;
import dev.spool.protocol.message.DeleteGroupsRequestData;
import dev.spool.protocol.message.DeleteGroupsResponseData;
import dev.spool.protocol.message.DeleteGroupsResponseData.DeletableGroupResult;
import dev.spool.protocol.message.DescribeGroupsRequestData;
import dev.spool.protocol.message.DescribeGroupsResponseData;
import dev.spool.protocol.message.DescribeGroupsResponseData.DescribedGroup;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.HeartbeatResponseData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.LeaveGroupResponseData;
import dev.spool.protocol.message.ListGroupsRequestData;
import dev.spool.protocol.message.ListGroupsResponseData;
import dev.spool.protocol.message.ListGroupsResponseData.ListedGroup;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.message.SyncGroupResponseData;
import dev.spool.protocol.types.Uuid;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The group APIs: JoinGroup, SyncGroup, Heartbeat, LeaveGroup, DescribeGroups, ListGroups and DeleteGroups, and
 * ConsumerGroupHeartbeat and ConsumerGroupDescribe where the consumer protocol is served, each handed to the {@link GroupCoordinator} shard
 * of its group. Thread-safe; never
 * blocks: a JoinGroup waiting for the rebalance is a parked future.
 */
public final class GroupHandler implements ApiFamily {

    /** JoinGroup v7 made the protocol name nullable; before it an error answer carries "". */
    private static final short FIRST_NULLABLE_PROTOCOL_NAME_VERSION = 7;

    private final GroupCoordinator coordinator;

    public GroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.JOIN_GROUP, 0, ApiKey.JOIN_GROUP.highestVersion, JoinGroupRequestData.class,
                        this::join)
                .register(ApiKey.SYNC_GROUP, 0, ApiKey.SYNC_GROUP.highestVersion, SyncGroupRequestData.class,
                        (context, request) -> sync(request, context.apiVersion()))
                .register(ApiKey.HEARTBEAT, 0, ApiKey.HEARTBEAT.highestVersion, HeartbeatRequestData.class,
                        (context, request) -> heartbeat(request))
                .register(ApiKey.LEAVE_GROUP, 0, ApiKey.LEAVE_GROUP.highestVersion, LeaveGroupRequestData.class,
                        (context, request) -> leave(request, context.apiVersion()))
                .register(ApiKey.DESCRIBE_GROUPS, 0, ApiKey.DESCRIBE_GROUPS.highestVersion,
                        DescribeGroupsRequestData.class, (context, request) -> describe(request, context))
                .register(ApiKey.LIST_GROUPS, 0, ApiKey.LIST_GROUPS.highestVersion, ListGroupsRequestData.class,
                        (context, request) -> list(request, context.access()))
                .register(ApiKey.DELETE_GROUPS, 0, ApiKey.DELETE_GROUPS.highestVersion, DeleteGroupsRequestData.class,
                        (context, request) -> delete(request, context.access()));
        if (coordinator.servesConsumerProtocol()) {
            registry.register(ApiKey.CONSUMER_GROUP_HEARTBEAT, 0, ApiKey.CONSUMER_GROUP_HEARTBEAT.highestVersion,
                            ConsumerGroupHeartbeatRequestData.class, this::consumerHeartbeat)
                    .register(ApiKey.CONSUMER_GROUP_DESCRIBE, 0, ApiKey.CONSUMER_GROUP_DESCRIBE.highestVersion,
                            ConsumerGroupDescribeRequestData.class,
                            (context, request) -> describeConsumerGroups(request, context.access()));
        }
    }

    /** ConsumerGroupDescribe (KIP-848): each group the sender may DESCRIBE, else GROUP_AUTHORIZATION_FAILED. */
    private CompletableFuture<ConsumerGroupDescribeResponseData> describeConsumerGroups(
            ConsumerGroupDescribeRequestData request, Access access) {
        List<CompletableFuture<ConsumerGroupDescribeResponseData.DescribedGroup>> described = new ArrayList<>();
        for (String groupId : request.groupIds()) {
            if (!access.allows(AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(CompletableFuture.completedFuture(new ConsumerGroupDescribeResponseData.DescribedGroup()
                        .setGroupId(groupId).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
                continue;
            }
            described.add(coordinator.call(groupId,
                    shard -> CompletableFuture.completedFuture(ConsumerGroupDescriber.describe(shard, groupId)),
                    error -> new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(groupId)
                            .setErrorCode(error.code())));
        }
        return CompletableFuture.allOf(described.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<ConsumerGroupDescribeResponseData.DescribedGroup> groups = new ArrayList<>(described.size());
            described.forEach(future -> groups.add(future.join()));
            return new ConsumerGroupDescribeResponseData().setGroups(groups);
        });
    }

    /**
     * ConsumerGroupHeartbeat (KIP-848): READ on the group is checked before (ApiAuthorization); a subscribed topic
     * the member may not DESCRIBE refuses the heartbeat, as in Kafka. At v0 the coordinator names a member that
     * joins without an id; from v1 the client does.
     */
    private CompletableFuture<ConsumerGroupHeartbeatResponseData> consumerHeartbeat(
            RequestContext context, ConsumerGroupHeartbeatRequestData request) {
        if (request.subscribedTopicNames() != null) {
            for (String topic : request.subscribedTopicNames()) {
                if (!context.access().allowsTopic(AclOperation.DESCRIBE, topic)) {
                    return CompletableFuture.completedFuture(ConsumerGroupHeartbeats.error(
                            Errors.TOPIC_AUTHORIZATION_FAILED, "Not authorized to describe topic " + topic));
                }
            }
        }
        if (context.apiVersion() == 0 && request.memberEpoch() == 0
                && (request.memberId() == null || request.memberId().isEmpty())) {
            request.setMemberId(Uuid.randomUuid().toString());
        }
        String clientId = context.clientId() == null ? "" : context.clientId();
        String host = clientHost(context);
        return coordinator.call(request.groupId(), shard -> CompletableFuture.completedFuture(
                        shard.consumerHeartbeats().heartbeat(request, clientId, host,
                                topic -> context.access().allowsTopic(AclOperation.DESCRIBE, topic))),
                error -> ConsumerGroupHeartbeats.error(error, null));
    }

    private CompletableFuture<JoinGroupResponseData> join(RequestContext context, JoinGroupRequestData request) {
        short version = context.apiVersion();
        ClassicGroupMembership.JoinRequest join = new ClassicGroupMembership.JoinRequest(request, version,
                context.clientId() == null ? "" : context.clientId(), clientHost(context));
        return coordinator.call(request.groupId(), shard -> shard.membership().join(join),
                        error -> ClassicGroupMembership.joinErrorResponse(error, request.memberId()))
                .thenApply(response -> {
                    if (version < FIRST_NULLABLE_PROTOCOL_NAME_VERSION && response.protocolName() == null) {
                        response.setProtocolName("");
                    }
                    return response;
                });
    }

    private CompletableFuture<SyncGroupResponseData> sync(SyncGroupRequestData request, short version) {
        return coordinator.call(request.groupId(), shard -> shard.membership().sync(request, version),
                ClassicGroupMembership::syncError);
    }

    private CompletableFuture<HeartbeatResponseData> heartbeat(HeartbeatRequestData request) {
        return coordinator.call(request.groupId(),
                shard -> CompletableFuture.completedFuture(shard.membership().heartbeat(request)),
                error -> error).thenApply(error -> new HeartbeatResponseData().setErrorCode(error.code()));
    }

    private CompletableFuture<LeaveGroupResponseData> leave(LeaveGroupRequestData request, short version) {
        return coordinator.call(request.groupId(),
                shard -> CompletableFuture.completedFuture(shard.membership().leave(request, version)),
                error -> new LeaveGroupResponseData().setErrorCode(error.code()));
    }

    private CompletableFuture<DescribeGroupsResponseData> describe(DescribeGroupsRequestData request,
                                                                   RequestContext context) {
        short version = context.apiVersion();
        List<CompletableFuture<DescribedGroup>> described = new ArrayList<>();
        for (String groupId : request.groups()) {
            if (!context.access().allows(AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(CompletableFuture.completedFuture(new DescribedGroup().setGroupId(groupId)
                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()).setGroupState("").setProtocolType("")
                        .setProtocolData("")));
                continue;
            }
            described.add(coordinator.call(groupId,
                    shard -> CompletableFuture.completedFuture(GroupAdministration.describe(shard, groupId, version)),
                    error -> new DescribedGroup().setGroupId(groupId).setErrorCode(error.code())
                            .setGroupState("").setProtocolType("").setProtocolData("")));
        }
        return CompletableFuture.allOf(described.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<DescribedGroup> groups = new ArrayList<>(described.size());
            described.forEach(future -> groups.add(future.join()));
            return new DescribeGroupsResponseData().setGroups(groups);
        });
    }

    /** Every group with DESCRIBE on the cluster, else the groups one may DESCRIBE, as Kafka lists them. */
    private CompletableFuture<ListGroupsResponseData> list(ListGroupsRequestData request, Access access) {
        Set<String> states = new HashSet<>();
        for (String name : request.statesFilter()) {
            states.add(name.toLowerCase(Locale.ROOT));
        }
        Set<String> types = new HashSet<>();
        for (String type : request.typesFilter()) {
            types.add(type.toLowerCase(Locale.ROOT));
        }
        return coordinator.callAll(shard -> GroupAdministration.list(shard, states, types)).thenApply(perShard -> {
            List<ListedGroup> groups = new ArrayList<>();
            perShard.forEach(groups::addAll);
            if (!access.allowsOnCluster(AclOperation.DESCRIBE)) {
                groups.removeIf(group -> !access.allows(AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId()));
            }
            return new ListGroupsResponseData().setErrorCode(Errors.NONE.code()).setGroups(groups);
        });
    }

    private CompletableFuture<DeleteGroupsResponseData> delete(DeleteGroupsRequestData request, Access access) {
        List<CompletableFuture<DeletableGroupResult>> results = new ArrayList<>();
        for (String groupId : request.groupsNames()) {
            if (!access.allows(AclOperation.DELETE, ResourceType.GROUP, groupId)) {
                results.add(CompletableFuture.completedFuture(new DeletableGroupResult().setGroupId(groupId)
                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
                continue;
            }
            results.add(coordinator.call(groupId,
                    shard -> CompletableFuture.completedFuture(GroupAdministration.delete(shard, groupId)),
                    error -> new DeletableGroupResult().setGroupId(groupId).setErrorCode(error.code())));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<DeletableGroupResult> answers = new ArrayList<>(results.size());
            results.forEach(future -> answers.add(future.join()));
            return new DeleteGroupsResponseData().setResults(answers);
        });
    }

    /** The client's address as Kafka reports it in DescribeGroups ("/127.0.0.1"). */
    private static String clientHost(RequestContext context) {
        if (context.peer() instanceof InetSocketAddress address && address.getAddress() != null) {
            return "/" + address.getAddress().getHostAddress();
        }
        return String.valueOf(context.peer());
    }
}
