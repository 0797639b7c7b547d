package dev.spool.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsRequestData;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeClientsTest {

    private final ClientEventLoops loops = ClientEventLoops.ownThreads(1, "node-clients-test");
    private final NodeClients clients = new NodeClients(ClientSettings.of("spool-node-3"), loops);

    @AfterEach
    void close() {
        clients.close();
        loops.close();
    }

    @Test
    void givesOneConnectionPerAddress() {
        NodeConnection first = clients.connection(new NodeAddress("127.0.0.1", 9093));

        assertThat(clients.connection(new NodeAddress("127.0.0.1", 9093))).isSameAs(first);
        assertThat(clients.connection(new NodeAddress("127.0.0.1", 9094))).isNotSameAs(first);
        assertThat(clients.connection(new NodeAddress("localhost", 9093))).isNotSameAs(first);
        assertThat(first.isConnected()).as("no socket before the first send").isFalse();
    }

    @Test
    void closeClosesEveryConnectionAndRefusesNewOnes() {
        NodeConnection connection = clients.connection(new NodeAddress("127.0.0.1", 9093));

        clients.close();

        CompletableFuture<?> response = connection.send(ApiKey.API_VERSIONS, (short) 3, new ApiVersionsRequestData());
        assertThat(response).isCompletedExceptionally();
        assertThatThrownBy(response::join).hasCauseInstanceOf(IOException.class);
        assertThatThrownBy(() -> clients.connection(new NodeAddress("127.0.0.1", 9093)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Node clients are closed; no connection to 127.0.0.1:9093");
    }
}
