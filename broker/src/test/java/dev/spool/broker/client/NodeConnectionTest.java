package dev.spool.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.EmbeddedSpool;
import dev.spool.broker.Spool;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ApiVersionsRequestData;
import dev.spool.protocol.message.ApiVersionsResponseData;
import dev.spool.protocol.message.MetadataRequestData;
import dev.spool.protocol.message.MetadataResponseData;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A node connection against a real Spool broker in this JVM, and against sockets that misbehave. */
class NodeConnectionTest {

    private static final short API_VERSIONS_V3 = 3;
    private static final short METADATA_V12 = 12;
    /** Whatever should happen at once is given this long, for a loaded CI machine. */
    private static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final ClientSettings SETTINGS = ClientSettings.of("spool-node-3");

    private static EmbeddedSpool spool;
    private static ClientEventLoops loops;
    /** Closed last to first after each test. */
    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();

    @BeforeAll
    static void startBrokerAndLoops() throws IOException {
        spool = Spool.embedded();
        loops = ClientEventLoops.ownThreads(2, "node-client-test");
    }

    @AfterAll
    static void stopBrokerAndLoops() {
        loops.close();
        spool.close();
    }

    @AfterEach
    void closeWhatTheTestOpened() throws Exception {
        while (!toClose.isEmpty()) {
            toClose.pop().close();
        }
    }

    private NodeConnection connection(int port, ClientSettings settings) {
        NodeConnection connection = new NodeConnection(new NodeAddress("127.0.0.1", port), settings, loops);
        toClose.push(connection);
        return connection;
    }

    private ServerSocket silentServer() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        toClose.push(server);
        return server;
    }

    private static ApiVersionsRequestData apiVersionsRequest() {
        return new ApiVersionsRequestData().setClientSoftwareName("spool").setClientSoftwareVersion("test");
    }

    private static MetadataRequestData metadataFor(String... topics) {
        List<MetadataRequestData.MetadataRequestTopic> requested = new ArrayList<>();
        for (String topic : topics) {
            requested.add(new MetadataRequestData.MetadataRequestTopic().setName(topic));
        }
        return new MetadataRequestData().setTopics(requested).setAllowAutoTopicCreation(false);
    }

    private static <T> T answer(CompletableFuture<T> response) throws Exception {
        return response.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The cause the future failed with, which must come within {@link #PROMPTLY}. */
    private static Throwable failure(CompletableFuture<?> response) {
        return assertThatThrownBy(() -> response.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).actual().getCause();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PROMPTLY.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not true within " + PROMPTLY + ": " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void apiVersionsV3AnswersWithTheApisOfTheBroker() throws Exception {
        NodeConnection connection = connection(spool.port(), SETTINGS);

        ApiVersionsResponseData response = answer(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                apiVersionsRequest()));

        assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.findApiKeys(ApiKey.API_VERSIONS.id).maxVersion()).isGreaterThanOrEqualTo(API_VERSIONS_V3);
        assertThat(response.findApiKeys(ApiKey.METADATA.id).maxVersion()).isGreaterThanOrEqualTo(METADATA_V12);
        assertThat(connection.isConnected()).isTrue();
    }

    @Test
    void metadataNamesTheBrokerAndItsCluster() throws Exception {
        NodeConnection connection = connection(spool.port(), SETTINGS);

        MetadataResponseData response = answer(connection.send(ApiKey.METADATA, METADATA_V12, metadataFor()));

        assertThat(response.brokers()).singleElement().satisfies(broker -> {
            assertThat(broker.host()).isEqualTo("127.0.0.1");
            assertThat(broker.port()).isEqualTo(spool.port());
            assertThat(broker.nodeId()).isEqualTo(response.controllerId());
        });
        assertThat(response.clusterId()).isEqualTo(spool.broker().cluster().clusterId());
        assertThat(response.topics()).isEmpty();
    }

    @Test
    void sendsFromManyThreadsAtOnceEachGetTheirOwnAnswer() throws Exception {
        NodeConnection connection = connection(spool.port(), SETTINGS);
        int threads = 8;
        int sendsPerThread = 50;
        ExecutorService senders = Executors.newFixedThreadPool(threads);
        toClose.push(senders::shutdownNow);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<CompletableFuture<MetadataResponseData>>>> sent = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            int sender = thread;
            sent.add(senders.submit(() -> {
                start.await();
                List<CompletableFuture<MetadataResponseData>> responses = new ArrayList<>();
                for (int i = 0; i < sendsPerThread; i++) {
                    responses.add(connection.send(ApiKey.METADATA, METADATA_V12, metadataFor("t-" + sender + "-" + i)));
                }
                return responses;
            }));
        }
        start.countDown();

        for (int thread = 0; thread < threads; thread++) {
            List<CompletableFuture<MetadataResponseData>> responses = sent.get(thread).get(PROMPTLY.toMillis(),
                    TimeUnit.MILLISECONDS);
            for (int i = 0; i < sendsPerThread; i++) {
                MetadataResponseData response = answer(responses.get(i));
                assertThat(response.topics()).singleElement().satisfies(topic -> {
                    assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                }).extracting(MetadataResponseData.MetadataResponseTopic::name)
                        .isEqualTo("t-" + thread + "-" + i);
            }
        }
    }

    @Test
    void failsPromptlyWithAConnectExceptionWhenNobodyListens() throws Exception {
        int freePort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = probe.getLocalPort();
        }
        NodeConnection connection = connection(freePort, SETTINGS);

        assertThat(failure(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest())))
                .isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("Cannot connect to node 127.0.0.1:" + freePort);
        assertThat(connection.isConnected()).isFalse();
    }

    @Test
    void afterTheBrokerStopsTheNextSendFailsAndTheOneAfterCannotConnect() throws Exception {
        EmbeddedSpool stopping = Spool.embedded();
        toClose.push(stopping);
        NodeConnection connection = connection(stopping.port(), SETTINGS);
        answer(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest()));

        stopping.close();

        // Whether this send still finds the old connection open or already connects anew, it fails.
        assertThat(failure(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest())))
                .isInstanceOf(IOException.class);
        await("the connection is seen closed", () -> !connection.isConnected());
        assertThat(failure(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest())))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void reconnectsOnTheNextSendAfterTheNodeClosedTheConnection() throws Exception {
        ServerSocket server = silentServer();
        ExecutorService node = Executors.newSingleThreadExecutor();
        toClose.push(node::shutdownNow);
        // A node that answers one ApiVersions request per connection, then closes it.
        Future<List<Integer>> correlationIdsSeen = node.submit(() -> {
            List<Integer> seen = new ArrayList<>();
            for (int connectionNumber = 1; connectionNumber <= 2; connectionNumber++) {
                try (Socket accepted = server.accept()) {
                    DataInputStream in = new DataInputStream(accepted.getInputStream());
                    byte[] frame = new byte[4 + in.readInt()];
                    in.readFully(frame, 4, frame.length - 4);
                    int correlationId = ByteBuffer.wrap(frame).getInt(8);
                    seen.add(correlationId);
                    accepted.getOutputStream().write(TestFrames.response(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                            correlationId, new ApiVersionsResponseData().setThrottleTimeMs(connectionNumber)));
                }
            }
            return seen;
        });
        NodeConnection connection = connection(server.getLocalPort(), SETTINGS);

        ApiVersionsResponseData first = answer(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                apiVersionsRequest()));
        await("the node closes the connection", () -> !connection.isConnected());
        ApiVersionsResponseData second = answer(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                apiVersionsRequest()));

        assertThat(List.of(first.throttleTimeMs(), second.throttleTimeMs())).as("answered on connection")
                .containsExactly(1, 2);
        assertThat(correlationIdsSeen.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("correlation ids")
                .containsExactly(0, 1);
    }

    @Test
    void aRequestInFlightFailsWhenTheNodeDropsTheConnection() throws Exception {
        ServerSocket server = silentServer();
        NodeConnection connection = connection(server.getLocalPort(), SETTINGS);
        CompletableFuture<ApiVersionsResponseData> response = connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                apiVersionsRequest());

        try (Socket accepted = server.accept()) {
            InputStream in = accepted.getInputStream();
            int size = new DataInputStream(in).readInt();
            in.readNBytes(size);
        }

        assertThat(failure(response)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("Connection to 127.0.0.1:" + server.getLocalPort()
                        + " closed before the response to ApiVersions v3 (correlation id 0)");
    }

    @Test
    void aNodeThatNeverAnswersFailsTheRequestAfterTheTimeout() throws Exception {
        ServerSocket server = silentServer();
        NodeConnection connection = connection(server.getLocalPort(), SETTINGS.withRequestTimeoutMs(300));
        long startNanos = System.nanoTime();

        Throwable failure = failure(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest()));

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)).isGreaterThanOrEqualTo(300);
        assertThat(failure).isInstanceOf(TimeoutException.class).hasMessageContaining("no response in 300 ms");
        await("the connection of the timed-out request is closed", () -> !connection.isConnected());
    }

    @Test
    void closeFailsTheRequestsInFlightAndEverySendAfter() throws Exception {
        ServerSocket server = silentServer();
        NodeConnection connection = connection(server.getLocalPort(), SETTINGS);
        CompletableFuture<ApiVersionsResponseData> inFlight = connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3,
                apiVersionsRequest());
        await("connected", connection::isConnected);

        connection.close();

        assertThat(failure(inFlight)).isInstanceOf(IOException.class).hasMessageContaining("closed");
        assertThat(failure(connection.send(ApiKey.API_VERSIONS, API_VERSIONS_V3, apiVersionsRequest())))
                .isInstanceOf(IOException.class)
                .hasMessage("Connection to 127.0.0.1:" + server.getLocalPort() + " is closed");
    }

    @Test
    void aVersionTheApiDoesNotHaveIsRefusedBeforeAnythingIsSent() {
        NodeConnection connection = connection(spool.port(), SETTINGS);

        assertThatThrownBy(() -> connection.send(ApiKey.API_VERSIONS, (short) 99, apiVersionsRequest()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ApiVersions has versions 0-5, not 99");
        assertThat(connection.isConnected()).isFalse();
    }
}
