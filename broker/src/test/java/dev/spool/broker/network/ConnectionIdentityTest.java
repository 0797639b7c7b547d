package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.api.ConnectionIdentity;
import dev.spool.broker.api.Principal;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.config.Endpoint;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ListGroupsRequestData;
import dev.spool.protocol.message.ListGroupsResponseData;
import dev.spool.protocol.message.RequestHeaderData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A request's context names the listener its connection came in on, that listener's protocol and the principal. */
class ConnectionIdentityTest {

    @Test
    void aRequestKnowsTheListenerItCameInOnAndWhoSentIt() throws Exception {
        CompletableFuture<RequestContext> seen = new CompletableFuture<>();
        ApiRegistry registry = new ApiRegistry().register(ApiKey.LIST_GROUPS, 0, 4, (context, request) -> {
            seen.complete(context);
            return CompletableFuture.<Message>completedFuture(new ListGroupsResponseData());
        });
        try (NetworkServer server = new NetworkServer(registry, new ApiVersionsHandler(registry), 1 << 20,
                new NetworkTransport(1), RequestObserver.NONE, NetworkLimits.NONE);
             Socket client = new Socket()) {
            server.bind(new Endpoint("REPLICATION", "127.0.0.1", 0), "PLAINTEXT");
            Endpoint clients = server.bind(new Endpoint("CLIENTS", "127.0.0.1", 0), "PLAINTEXT");
            client.connect(new InetSocketAddress("127.0.0.1", clients.port()));
            sendListGroups(client);

            RequestContext context = seen.get(10, TimeUnit.SECONDS);
            assertThat(context.connection()).isEqualTo(new ConnectionIdentity("CLIENTS", "PLAINTEXT", Principal.ANONYMOUS));
            assertThat(context.principal()).hasToString("User:ANONYMOUS");
            assertThat(context.clientId()).isEqualTo("identity-test");
        }
    }

    private static void sendListGroups(Socket client) throws Exception {
        short version = 4;
        ByteBuffer header = ByteBufferWriter.serialize(new RequestHeaderData().setRequestApiKey(ApiKey.LIST_GROUPS.id)
                .setRequestApiVersion(version).setCorrelationId(7).setClientId("identity-test"),
                ApiKey.LIST_GROUPS.requestHeaderVersion(version));
        ByteBuffer body = ByteBufferWriter.serialize(new ListGroupsRequestData(), version);
        DataOutputStream out = new DataOutputStream(client.getOutputStream());
        out.writeInt(header.remaining() + body.remaining());
        out.write(header.array(), header.arrayOffset() + header.position(), header.remaining());
        out.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
        out.flush();
    }
}
