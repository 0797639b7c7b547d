package dev.spool.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.config.Endpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterViewTest {

    private static final Endpoint ONE_PLAIN = new Endpoint("PLAINTEXT", "h1", 9092);
    private static final Endpoint ONE_TLS = new Endpoint("SSL", "h1", 9093);
    private static final Endpoint TWO_PLAIN = new Endpoint("PLAINTEXT", "h2", 9092);

    private final ClusterView view = new ClusterView("c", 1, List.of(
            new ClusterView.BrokerNode(1, ONE_PLAIN, "r1", List.of(ONE_PLAIN, ONE_TLS)),
            new ClusterView.BrokerNode(2, TWO_PLAIN, null)));

    @Test
    void aClientIsToldOfEachBrokerOnTheListenerItCameInOn() {
        ClusterView tls = view.onListener("ssl");

        assertThat(tls.brokers()).extracting(ClusterView.BrokerNode::endpoint).as("a broker without it left out")
                .containsExactly(ONE_TLS);
        assertThat(tls.broker(1).rack()).isEqualTo("r1");
        assertThat(tls.controllerId()).isEqualTo(1);
        assertThat(view.onListener("PLAINTEXT").brokers()).extracting(ClusterView.BrokerNode::endpoint)
                .containsExactly(ONE_PLAIN, TWO_PLAIN);
    }

    @Test
    void aListenerNoBrokerHasLeavesTheViewAsItIs() {
        assertThat(view.onListener("CONTROLLER")).isSameAs(view);
    }
}
