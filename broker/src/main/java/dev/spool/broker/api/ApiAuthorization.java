package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.Authorizer;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AddOffsetsToTxnRequestData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;
import dev.spool.protocol.message.EndTxnRequestData;
import dev.spool.protocol.message.HeartbeatRequestData;
import dev.spool.protocol.message.InitProducerIdRequestData;
import dev.spool.protocol.message.JoinGroupRequestData;
import dev.spool.protocol.message.LeaveGroupRequestData;
import dev.spool.protocol.message.SyncGroupRequestData;
import dev.spool.protocol.types.Message;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Every API authorized as Kafka's broker authorizes it, once an authorizer is configured: a super user may do
 * anything; otherwise the API's rule decides. A rule refuses a request as a whole (a cluster operation, the group of
 * a JoinGroup, the transactional id of an EndTxn), answered with the API's authorization error and never handled;
 * or lets it through with the sender's {@link Access}, which the handler consults per topic or group where Kafka
 * does (Produce, Fetch, Metadata, ...). An API without a rule is for super users only: a new API is closed until
 * someone decides who may call it. Requests a node sends itself are not checked. Thread-safe.
 */
public final class ApiAuthorization implements ApiHandler {

    /** Why a request is refused as a whole, or null to hand it on. */
    @FunctionalInterface
    interface Rule {
        Errors refusal(RequestContext context, Access access, Message request);
    }

    /** An API authorized item by item before its handler, which may be another node's (see ForwardedAdminAuthorization). */
    @FunctionalInterface
    interface Guard {
        CompletableFuture<Message> handle(RequestContext context, Access access, Message request, ApiHandler next);
    }

    /** Lets the request through; its handler asks {@link RequestContext#access()} per resource. */
    private static final Rule HANDLER_CHECKS = (context, access, request) -> null;
    private static final Rule SUPER_USERS_ONLY = (context, access, request) -> Errors.CLUSTER_AUTHORIZATION_FAILED;
    private static final Map<ApiKey, Rule> RULES = rules();

    private final ApiKey api;
    private final ApiHandler next;
    private final Rule rule;
    private final Guard guard;
    private final Authorizer authorizer;

    private ApiAuthorization(ApiKey api, ApiHandler next, Rule rule, Guard guard, Authorizer authorizer) {
        this.api = api;
        this.next = next;
        this.rule = rule;
        this.guard = guard;
        this.authorizer = authorizer;
    }

    /**
     * Wraps every API of {@code registry} in its rule, when {@code authorizer} is on: last, around forwarding too, so
     * a request is authorized where its sender is known.
     */
    public static void install(ApiRegistry registry, Authorizer authorizer, Supplier<MetadataImage> image) {
        if (!authorizer.enabled()) {
            return;
        }
        ForwardedAdminAuthorization admin = new ForwardedAdminAuthorization(image);
        Map<ApiKey, Guard> guards = Map.of(ApiKey.CREATE_TOPICS, admin::createTopics,
                ApiKey.DELETE_TOPICS, admin::deleteTopics, ApiKey.CREATE_PARTITIONS, admin::createPartitions,
                ApiKey.ALTER_CONFIGS, admin::alterConfigs, ApiKey.INCREMENTAL_ALTER_CONFIGS, admin::incrementalAlterConfigs);
        for (ApiRegistry.RegisteredApi registered : registry.all().toArray(ApiRegistry.RegisteredApi[]::new)) {
            ApiKey key = registered.apiKey();
            Guard guard = guards.get(key);
            registry.wrap(key, handler -> new ApiAuthorization(key, handler,
                    guard != null ? HANDLER_CHECKS : RULES.getOrDefault(key, SUPER_USERS_ONLY), guard, authorizer));
        }
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        Principal principal = context.principal();
        if (principal == Principal.THIS_NODE) {
            return next.handle(context, request);
        }
        String name = principal.toString();
        if (authorizer.isSuperUser(name)) {
            return next.handle(context, request);
        }
        String host = hostOf(context.peer());
        Access access = new Access() {
            @Override
            public boolean allows(AclOperation operation, ResourceType type, String resource) {
                return authorizer.authorize(name, host, operation, type, resource);
            }

            @Override
            public boolean allowsAny(AclOperation operation, ResourceType type) {
                return authorizer.authorizeAny(name, host, operation, type);
            }
        };
        Errors refusal = rule.refusal(context, access, request);
        if (refusal == null) {
            RequestContext narrowed = context.withAccess(access);
            return guard != null ? guard.handle(narrowed, access, request, next) : next.handle(narrowed, request);
        }
        Message response = AuthorizationErrors.responseFor(api, request, refusal);
        if (response == null) {
            return CompletableFuture.failedFuture(new ConnectionCloseRequest(context + " refused: " + refusal));
        }
        return CompletableFuture.completedFuture(response);
    }

    private static String hostOf(SocketAddress peer) {
        return peer instanceof InetSocketAddress address && address.getAddress() != null
                ? address.getAddress().getHostAddress() : "";
    }

    private static Map<ApiKey, Rule> rules() {
        Map<ApiKey, Rule> rules = new EnumMap<>(ApiKey.class);
        Rule open = (context, access, request) -> null;
        rules.put(ApiKey.API_VERSIONS, open);
        rules.put(ApiKey.SASL_HANDSHAKE, open);
        rules.put(ApiKey.SASL_AUTHENTICATE, open);
        // Kafka asks DESCRIBE on the cluster only for the authorized operations DescribeCluster may list.
        rules.put(ApiKey.DESCRIBE_CLUSTER, open);

        for (ApiKey nodeToNode : new ApiKey[] {ApiKey.ALTER_PARTITION, ApiKey.BROKER_HEARTBEAT,
                ApiKey.BROKER_REGISTRATION, ApiKey.ALLOCATE_PRODUCER_IDS, ApiKey.FETCH_SNAPSHOT,
                ApiKey.WRITE_TXN_MARKERS}) {
            rules.put(nodeToNode, onCluster(AclOperation.CLUSTER_ACTION));
        }
        for (ApiKey alter : new ApiKey[] {ApiKey.UNREGISTER_BROKER, ApiKey.ADD_RAFT_VOTER, ApiKey.REMOVE_RAFT_VOTER,
                ApiKey.ELECT_LEADERS, ApiKey.ALTER_PARTITION_REASSIGNMENTS, ApiKey.ALTER_REPLICA_LOG_DIRS,
                ApiKey.ALTER_USER_SCRAM_CREDENTIALS, ApiKey.CREATE_ACLS, ApiKey.DELETE_ACLS}) {
            rules.put(alter, onCluster(AclOperation.ALTER));
        }
        for (ApiKey describe : new ApiKey[] {ApiKey.DESCRIBE_QUORUM, ApiKey.LIST_PARTITION_REASSIGNMENTS,
                ApiKey.DESCRIBE_LOG_DIRS, ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, ApiKey.DESCRIBE_ACLS}) {
            rules.put(describe, onCluster(AclOperation.DESCRIBE));
        }
        rules.put(ApiKey.DESCRIBE_CLIENT_QUOTAS, onCluster(AclOperation.DESCRIBE_CONFIGS));
        rules.put(ApiKey.ALTER_CLIENT_QUOTAS, onCluster(AclOperation.ALTER_CONFIGS));

        rules.put(ApiKey.JOIN_GROUP, (context, access, request) ->
                groupRead(access, ((JoinGroupRequestData) request).groupId()));
        rules.put(ApiKey.SYNC_GROUP, (context, access, request) ->
                groupRead(access, ((SyncGroupRequestData) request).groupId()));
        rules.put(ApiKey.HEARTBEAT, (context, access, request) ->
                groupRead(access, ((HeartbeatRequestData) request).groupId()));
        rules.put(ApiKey.LEAVE_GROUP, (context, access, request) ->
                groupRead(access, ((LeaveGroupRequestData) request).groupId()));
        // Its subscribed topics are checked by the handler: TOPIC_AUTHORIZATION_FAILED for one not DESCRIBE-able.
        rules.put(ApiKey.CONSUMER_GROUP_HEARTBEAT, (context, access, request) ->
                groupRead(access, ((ConsumerGroupHeartbeatRequestData) request).groupId()));
        rules.put(ApiKey.CONSUMER_GROUP_DESCRIBE, HANDLER_CHECKS); // DESCRIBE on each group

        rules.put(ApiKey.INIT_PRODUCER_ID, (context, access, request) -> {
            String transactionalId = ((InitProducerIdRequestData) request).transactionalId();
            if (transactionalId != null) {
                return transactionalWrite(access, transactionalId);
            }
            // An idempotent producer: IDEMPOTENT_WRITE on the cluster, or WRITE on some topic (KIP-679).
            return access.allowsOnCluster(AclOperation.IDEMPOTENT_WRITE)
                    || access.allowsAny(AclOperation.WRITE, ResourceType.TOPIC)
                    ? null : Errors.CLUSTER_AUTHORIZATION_FAILED;
        });
        rules.put(ApiKey.END_TXN, (context, access, request) ->
                transactionalWrite(access, ((EndTxnRequestData) request).transactionalId()));
        rules.put(ApiKey.ADD_OFFSETS_TO_TXN, (context, access, request) -> {
            AddOffsetsToTxnRequestData add = (AddOffsetsToTxnRequestData) request;
            Errors refusal = transactionalWrite(access, add.transactionalId());
            return refusal != null ? refusal : groupRead(access, add.groupId());
        });

        // From v4 only brokers send it, to verify a transaction (KIP-890); a producer's is checked by the handler.
        rules.put(ApiKey.ADD_PARTITIONS_TO_TXN, (context, access, request) -> context.apiVersion() < 4
                || access.allowsOnCluster(AclOperation.CLUSTER_ACTION) ? null : Errors.CLUSTER_AUTHORIZATION_FAILED);
        // Fetch and OffsetForLeaderEpoch: CLUSTER_ACTION (a follower) or READ / DESCRIBE per topic, in the handler.
        for (ApiKey perResource : new ApiKey[] {ApiKey.FETCH, ApiKey.OFFSET_FOR_LEADER_EPOCH, ApiKey.PRODUCE,
                ApiKey.LIST_OFFSETS, ApiKey.METADATA,
                ApiKey.OFFSET_COMMIT, ApiKey.OFFSET_FETCH, ApiKey.FIND_COORDINATOR, ApiKey.DESCRIBE_GROUPS,
                ApiKey.LIST_GROUPS, ApiKey.DELETE_GROUPS, ApiKey.DESCRIBE_CONFIGS, ApiKey.DELETE_RECORDS,
                ApiKey.DESCRIBE_PRODUCERS, ApiKey.DESCRIBE_TRANSACTIONS, ApiKey.LIST_TRANSACTIONS, ApiKey.OFFSET_DELETE,
                ApiKey.DESCRIBE_TOPIC_PARTITIONS, ApiKey.TXN_OFFSET_COMMIT}) {
            rules.put(perResource, HANDLER_CHECKS);
        }
        return rules;
    }

    private static Rule onCluster(AclOperation operation) {
        return (context, access, request) -> access.allowsOnCluster(operation)
                ? null : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    private static Errors groupRead(Access access, String group) {
        return access.allows(AclOperation.READ, ResourceType.GROUP, group) ? null : Errors.GROUP_AUTHORIZATION_FAILED;
    }

    private static Errors transactionalWrite(Access access, String transactionalId) {
        return access.allows(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)
                ? null : Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
    }
}
