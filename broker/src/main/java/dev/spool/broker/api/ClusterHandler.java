package dev.spool.broker.api;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeClusterRequestData;
import dev.spool.protocol.message.DescribeClusterResponseData;
import dev.spool.protocol.message.DescribeClusterResponseData.DescribeClusterBroker;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * DescribeCluster: the cluster id, the controller and the brokers (KIP-700); on a controller listener of a
 * cluster's node, the controllers instead (KIP-919: what {@code --bootstrap-controller} tools ask). Thread-safe.
 *
 * <p>A controller asked while the quorum elects answers once it knows the new leader, up to
 * {@link #ELECTION_WAIT_MS}: Kafka's admin client, told of no controller by a bootstrap controller, stops asking
 * until its metadata expires ({@code metadata.max.age.ms}, 5 minutes), so a tool run during an election would
 * hang for its whole timeout. After the wait, the answer is -1, Kafka's "no controller known".
 */
public final class ClusterHandler implements ApiHandler {

    private static final byte BROKER_ENDPOINTS = 1;
    private static final byte CONTROLLER_ENDPOINTS = 2;

    /**
     * Many election rounds (1-2 s each; on a disk whose fsync takes a second, an election took 18 s here), and
     * still inside the admin client's 30 s {@code request.timeout.ms}.
     */
    static final long ELECTION_WAIT_MS = 25_000;
    private static final long ELECTION_POLL_MS = 50;

    private final Supplier<ClusterView> cluster;
    private final Supplier<ClusterView> controllers;
    private final Predicate<String> isControllerListener;
    private final ScheduledExecutorService scheduler;
    private final long electionWaitMs;

    /** A node with no controller listener: it describes brokers only. */
    public ClusterHandler(Supplier<ClusterView> cluster) {
        this(cluster, null, listener -> false, null);
    }

    /**
     * A node that answers on its controller listeners (those {@code isControllerListener} names) as a controller,
     * waiting on {@code scheduler} for an election to end.
     */
    public ClusterHandler(Supplier<ClusterView> cluster, Supplier<ClusterView> controllers,
                          Predicate<String> isControllerListener, ScheduledExecutorService scheduler) {
        this(cluster, controllers, isControllerListener, scheduler, ELECTION_WAIT_MS);
    }

    ClusterHandler(Supplier<ClusterView> cluster, Supplier<ClusterView> controllers,
                   Predicate<String> isControllerListener, ScheduledExecutorService scheduler, long electionWaitMs) {
        this.cluster = cluster;
        this.controllers = controllers;
        this.isControllerListener = isControllerListener;
        this.scheduler = scheduler;
        this.electionWaitMs = electionWaitMs;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        DescribeClusterRequestData request = (DescribeClusterRequestData) message;
        boolean asController = isControllerListener.test(context.connection().listenerName());
        byte served = asController ? CONTROLLER_ENDPOINTS : BROKER_ENDPOINTS;
        if (request.endpointType() != served) {
            return CompletableFuture.completedFuture(new DescribeClusterResponseData()
                    .setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .setErrorMessage(asController
                            ? "The request was sent to a controller, which describes controllers only."
                            : "The request was sent to a broker, which describes brokers only.")
                    .setEndpointType(request.endpointType()));
        }
        if (!asController) {
            return CompletableFuture.completedFuture(answer(
                    cluster.get().onListener(context.connection().listenerName()), served));
        }
        CompletableFuture<Message> answer = new CompletableFuture<>();
        answerOnceElected(answer, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(electionWaitMs));
        return answer;
    }

    /** Completes {@code answer} with the controllers as soon as one leads, or as they are at {@code deadlineNanos}. */
    private void answerOnceElected(CompletableFuture<Message> answer, long deadlineNanos) {
        ClusterView view = controllers.get();
        if (view.controllerId() >= 0 || System.nanoTime() - deadlineNanos >= 0) {
            answer.complete(answer(view, CONTROLLER_ENDPOINTS));
            return;
        }
        scheduler.schedule(() -> answerOnceElected(answer, deadlineNanos), ELECTION_POLL_MS, TimeUnit.MILLISECONDS);
    }

    private static DescribeClusterResponseData answer(ClusterView view, byte served) {
        List<DescribeClusterBroker> brokers = new ArrayList<>();
        for (ClusterView.BrokerNode node : view.brokers()) {
            brokers.add(new DescribeClusterBroker()
                    .setBrokerId(node.nodeId())
                    .setHost(node.endpoint().host())
                    .setPort(node.endpoint().port())
                    .setRack(node.rack()));
        }
        return new DescribeClusterResponseData()
                .setErrorCode(Errors.NONE.code())
                .setClusterId(view.clusterId())
                .setControllerId(view.controllerId())
                .setEndpointType(served)
                .setBrokers(brokers);
    }
}
