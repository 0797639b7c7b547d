package dev.spool.broker.group;

import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.PartitionImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.broker.txn.TransactionCoordinator;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FindCoordinatorRequestData;
import dev.spool.protocol.message.FindCoordinatorResponseData;
import dev.spool.protocol.message.FindCoordinatorResponseData.Coordinator;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * FindCoordinator (v0-6; batched keys from v4, KIP-699): for a group, the leader of its {@code __consumer_offsets}
 * partition, for a transactional id (key type 1) the leader of its {@code __transaction_state} partition, as the
 * cluster view knows it, once the topic exists (the first request creates it); COORDINATOR_NOT_AVAILABLE while that
 * leader is not a live broker. Other key types (share groups) are INVALID_REQUEST. Thread-safe.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private static final byte GROUP_KEY = 0;
    private static final byte TRANSACTION_KEY = 1;
    private static final short FIRST_BATCHED_VERSION = 4;

    private final GroupCoordinator coordinator;
    private final TransactionCoordinator transactions;
    private final Supplier<MetadataImage> metadata;
    private final Supplier<ClusterView> cluster;

    public FindCoordinatorHandler(GroupCoordinator coordinator, TransactionCoordinator transactions,
                                  Supplier<MetadataImage> metadata, Supplier<ClusterView> cluster) {
        this.coordinator = coordinator;
        this.transactions = transactions;
        this.metadata = metadata;
        this.cluster = cluster;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        FindCoordinatorRequestData request = (FindCoordinatorRequestData) message;
        boolean batched = context.apiVersion() >= FIRST_BATCHED_VERSION;
        List<String> keys = batched ? request.coordinatorKeys() : List.of(request.key());
        byte keyType = request.keyType();
        // Authorized first, as Kafka: a sender refused every key does not get the internal topic created.
        boolean knownType = keyType == GROUP_KEY || keyType == TRANSACTION_KEY;
        List<Errors> refusals = new ArrayList<>(keys.size());
        for (String key : keys) {
            refusals.add(knownType ? refusal(context, keyType, key) : Errors.NONE);
        }
        CompletableFuture<Void> topic = !knownType ? null
                : !refusals.contains(Errors.NONE) ? CompletableFuture.completedFuture(null)
                : keyType == GROUP_KEY ? coordinator.ensureTopic() : transactions.ensureTopic();
        CompletableFuture<Errors> ready = topic == null ? CompletableFuture.completedFuture(Errors.INVALID_REQUEST)
                : topic.handle((done, failure) -> failure == null ? Errors.NONE : Errors.COORDINATOR_NOT_AVAILABLE);
        String listener = context.connection().listenerName();
        return ready.thenApply(error -> {
            List<Coordinator> coordinators = new ArrayList<>(keys.size());
            ClusterView view = cluster.get().onListener(listener);
            for (int i = 0; i < keys.size(); i++) {
                Errors refusal = refusals.get(i);
                coordinators.add(coordinator(view, keyType, keys.get(i), refusal != Errors.NONE ? refusal : error));
            }
            if (batched) {
                return new FindCoordinatorResponseData().setCoordinators(coordinators);
            }
            Coordinator only = coordinators.get(0);
            return new FindCoordinatorResponseData()
                    .setErrorCode(only.errorCode())
                    .setErrorMessage(only.errorMessage())
                    .setNodeId(only.nodeId())
                    .setHost(only.host())
                    .setPort(only.port());
        });
    }

    /** Finding a group's coordinator takes DESCRIBE on the group; a transactional id's, DESCRIBE on it. */
    private static Errors refusal(RequestContext context, byte keyType, String key) {
        return keyType == GROUP_KEY ? context.access().allows(AclOperation.DESCRIBE, ResourceType.GROUP, key)
                ? Errors.NONE : Errors.GROUP_AUTHORIZATION_FAILED
                : context.access().allows(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)
                ? Errors.NONE : Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
    }

    private Coordinator coordinator(ClusterView view, byte keyType, String key, Errors error) {
        Coordinator answer = new Coordinator().setKey(key);
        if (error != Errors.NONE) {
            return answer.setErrorCode(error.code()).setNodeId(-1).setHost("").setPort(-1)
                    .setErrorMessage(errorMessage(keyType, key, error));
        }
        ClusterView.BrokerNode leader = keyType == GROUP_KEY
                ? leaderOf(view, GroupCoordinator.TOPIC, coordinator.partitionFor(key))
                : leaderOf(view, TransactionCoordinator.TOPIC, transactions.partitionFor(key));
        if (leader == null) {
            return coordinator(view, keyType, key, Errors.COORDINATOR_NOT_AVAILABLE);
        }
        return answer.setErrorCode(Errors.NONE.code()).setNodeId(leader.nodeId())
                .setHost(leader.endpoint().host()).setPort(leader.endpoint().port());
    }

    /** The live broker leading this partition of an internal topic, or null. */
    private ClusterView.BrokerNode leaderOf(ClusterView view, String internalTopic, int partition) {
        TopicImage topic = metadata.get().topic(internalTopic);
        PartitionImage image = topic == null ? null : topic.partition(partition);
        return image == null ? null : view.broker(image.leader());
    }

    private static String errorMessage(byte keyType, String key, Errors error) {
        if (error == Errors.COORDINATOR_NOT_AVAILABLE) {
            return "The coordinator is not available.";
        }
        if (error == Errors.GROUP_AUTHORIZATION_FAILED || error == Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED) {
            return "Not authorized to describe " + key + ".";
        }
        return "Unknown coordinator key type " + keyType + ".";
    }
}
