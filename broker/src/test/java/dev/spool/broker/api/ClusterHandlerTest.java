package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.Endpoint;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeClusterRequestData;
import dev.spool.protocol.message.DescribeClusterResponseData;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClusterHandlerTest {

    private static final byte CONTROLLER_ENDPOINTS = 2;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger leader = new AtomicInteger(-1);

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private ClusterView controllers() {
        return new ClusterView("cluster", leader.get(), List.of(
                new ClusterView.BrokerNode(1, new Endpoint("CONTROLLER", "127.0.0.1", 9001), null),
                new ClusterView.BrokerNode(2, new Endpoint("CONTROLLER", "127.0.0.1", 9002), null)));
    }

    private DescribeClusterResponseData askAsController(ClusterHandler handler) throws Exception {
        RequestContext context = new RequestContext(ApiKey.DESCRIBE_CLUSTER, (short) 1, 1, "test", null,
                ConnectionIdentity.plaintext("CONTROLLER"));
        return (DescribeClusterResponseData) handler.handle(context,
                new DescribeClusterRequestData().setEndpointType(CONTROLLER_ENDPOINTS)).get(10, TimeUnit.SECONDS);
    }

    private ClusterHandler handler(long electionWaitMs) {
        return new ClusterHandler(this::controllers, this::controllers, "CONTROLLER"::equals, scheduler,
                electionWaitMs);
    }

    @Test
    void aControllerAskedDuringAnElectionAnswersWithTheLeaderElected() throws Exception {
        scheduler.schedule(() -> leader.set(2), 300, TimeUnit.MILLISECONDS);

        DescribeClusterResponseData answer = askAsController(handler(5_000));

        assertThat(answer.controllerId()).as("not -1, which Kafka's admin client would keep for minutes").isEqualTo(2);
        assertThat(answer.brokers()).extracting(DescribeClusterResponseData.DescribeClusterBroker::brokerId)
                .containsExactly(1, 2);
    }

    @Test
    void anElectionThatOutlastsTheWaitIsAnsweredWithNoController() throws Exception {
        long start = System.nanoTime();

        DescribeClusterResponseData answer = askAsController(handler(200));

        assertThat(answer.controllerId()).isEqualTo(-1);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(200);
    }

    @Test
    void aKnownLeaderIsAnsweredAtOnce() throws Exception {
        leader.set(1);

        assertThat(askAsController(handler(60_000)).controllerId()).isEqualTo(1);
    }
}
