package dev.spool.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NodeAddressTest {

    @Test
    void printsAsHostColonPort() {
        assertThat(new NodeAddress("node-1.example", 9093)).hasToString("node-1.example:9093");
    }

    @Test
    void refusesAPortOutOfRangeAndAnEmptyHost() {
        assertThatThrownBy(() -> new NodeAddress("node-1.example", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Port 0 of node address node-1.example is not in 1-65535");
        assertThatThrownBy(() -> new NodeAddress("", 9093)).isInstanceOf(IllegalArgumentException.class);
    }
}
