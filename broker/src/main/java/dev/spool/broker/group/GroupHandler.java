package dev.spool.broker.group;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiFamily;
import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
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
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The classic group APIs: JoinGroup, SyncGroup, Heartbeat, LeaveGroup, DescribeGroups, ListGroups and
 * DeleteGroups, each handed to the {@link GroupCoordinator} shard of its group. Thread-safe; never
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
        Set<GroupState> states = new HashSet<>();
        for (String name : request.statesFilter()) {
            GroupState state = GroupState.forName(name);
            if (state == null) {
                // A state classic groups never have (e.g. "Assigning" of the new protocol): nothing matches.
                return CompletableFuture.completedFuture(new ListGroupsResponseData().setErrorCode(Errors.NONE.code()));
            }
            states.add(state);
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
