package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.it.fuzz.FrameMutator;
import dev.spool.it.fuzz.FuzzSeeds;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fuzz run against a SASL listener (issue 22): unauthenticated connections send every API the broker advertises,
 * valid and mutated (FuzzSeeds with the destructive APIs, FrameMutator), each after a random start of a SASL
 * exchange (none, a handshake, a handshake and a wrong password, a v0 handshake, an unknown mechanism, ApiVersions),
 * then a Metadata request. No unauthenticated request may reach a handler other than ApiVersions: the broker's
 * per-API request counters (its metrics endpoint) show none, no connection gets an answer to its Metadata, and the
 * broker lives. {@code -Dfuzz.sasl.inputs=N} (default 1200) and {@code -Dfuzz.seed=S} set the run.
 */
class SaslFuzzIT {

    private static final String USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_alice=\"alice-secret\";";
    /** The correlation id of the Metadata sent last on every connection: an answer to it is a breach. */
    private static final int CANARY = 0x7EEEEEEE;
    /** Handled before authentication: ApiVersions by the broker, the SASL requests by the listener's gate. */
    private static final Set<String> ALLOWED = Set.of("ApiVersions", "SaslHandshake", "SaslAuthenticate");
    private static final String REQUESTS = "kafka_network_requestmetrics_requests_total{request=\"";
    private static final int THREADS = 4;

    @TempDir
    static java.nio.file.Path dir;

    @Test
    void noUnauthenticatedRequestReachesAHandlerOtherThanApiVersionsAndSasl() throws Exception {
        int inputs = Integer.getInteger("fuzz.sasl.inputs", 1200);
        long seed = Long.getLong("fuzz.seed", 1L);
        try (SpoolProcess spool = SpoolProcess.startIn(dir.resolve("data"),
                "listeners=PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0", "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + USERS, "metrics.listener=127.0.0.1:0")) {
            int port = spool.listenerPorts().get("SASL_PLAINTEXT");
            PrometheusEndpoint metrics = PrometheusEndpoint.of(spool);
            FuzzSeeds seeds = new FuzzSeeds(ProtocolFuzzIT.advertised(port), "fuzz", Uuid.randomUuid(), true);
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            List<Future<List<String>>> breaches = new ArrayList<>();
            for (int thread = 0; thread < THREADS; thread++) {
                Random random = new Random(seed * 31 + thread);
                breaches.add(threads.submit(() -> fuzz(port, seeds, random, inputs / THREADS)));
            }
            List<String> answered = new ArrayList<>();
            for (Future<List<String>> breach : breaches) {
                answered.addAll(breach.get(10, TimeUnit.MINUTES));
            }
            threads.shutdown();
            assertThat(answered).as("Metadata answered on an unauthenticated connection").isEmpty();
            assertThat(handled(metrics.scrape())).as("requests handled, by API, other than ApiVersions and SASL")
                    .isEmpty();
            assertThat(spool.isAlive()).isTrue();

            // The counters do count this listener's requests: an authenticated Metadata is one.
            try (RawConnection alice = new RawConnection(port)) {
                assertThat(alice.authenticatePlain("alice", "alice-secret").data().errorCode()).isZero();
                alice.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(List.of()));
            }
            assertThat(handled(metrics.scrape())).containsEntry("Metadata", 1.0);
        }
    }

    /** Requests handled per API, but for the ones allowed before authentication. */
    private static Map<String, Double> handled(Map<String, Double> samples) {
        Map<String, Double> handled = new TreeMap<>();
        samples.forEach((name, value) -> {
            if (name.startsWith(REQUESTS) && value > 0) {
                String api = name.substring(REQUESTS.length(), name.indexOf('"', REQUESTS.length()));
                if (!ALLOWED.contains(api)) {
                    handled.put(api, value);
                }
            }
        });
        return handled;
    }

    /** Sends {@code count} inputs, each on a new connection; the inputs whose Metadata canary was answered. */
    private static List<String> fuzz(int port, FuzzSeeds seeds, Random random, int count) throws IOException {
        FrameMutator mutator = new FrameMutator(random, seeds.all());
        List<String> breaches = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean valid = random.nextBoolean();
            FuzzSeeds.Seed pick = seeds.all().get(random.nextInt(seeds.all().size()));
            FrameMutator.Input input = valid ? null : mutator.next();
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            int start = random.nextInt(6);
            sent.write(opening(start));
            sent.write(valid ? framed(pick.body()) : input.frame());
            if (valid || !input.raw()) {
                sent.write(frame(ApiKeys.METADATA, (short) 12, CANARY, new MetadataRequestData().setTopics(null)));
            }
            String what = "start " + start + ", " + (valid ? pick.api() + " v" + pick.version() : input.kind()
                    + " of " + input.seedApi());
            if (canaryAnswered(port, sent.toByteArray())) {
                breaches.add(what);
            }
        }
        return breaches;
    }

    /** The start of a SASL exchange (or none) a connection sends before its fuzz input. */
    private static byte[] opening(int kind) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] handshake = frame(ApiKeys.SASL_HANDSHAKE, (short) 1, 1,
                new SaslHandshakeRequestData().setMechanism("PLAIN"));
        switch (kind) {
            case 1 -> out.writeBytes(handshake);
            case 2 -> {
                out.writeBytes(handshake);
                out.writeBytes(frame(ApiKeys.SASL_AUTHENTICATE, (short) 2, 2, new SaslAuthenticateRequestData()
                        .setAuthBytes("\0alice\0wrong".getBytes(StandardCharsets.UTF_8))));
            }
            case 3 -> out.writeBytes(frame(ApiKeys.SASL_HANDSHAKE, (short) 0, 1,
                    new SaslHandshakeRequestData().setMechanism("PLAIN")));
            case 4 -> out.writeBytes(frame(ApiKeys.SASL_HANDSHAKE, (short) 1, 1,
                    new SaslHandshakeRequestData().setMechanism("GSSAPI")));
            case 5 -> out.writeBytes(frame(ApiKeys.API_VERSIONS, (short) 3, 1,
                    new ApiVersionsRequestData().setClientSoftwareName("fuzz").setClientSoftwareVersion("1")));
            default -> {
                // nothing: the fuzz input is the connection's first request
            }
        }
        return out.toByteArray();
    }

    /** Whether the broker answered the canary before closing the connection (or going quiet for 3 s). */
    private static boolean canaryAnswered(int port, byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(3_000);
            try {
                socket.getOutputStream().write(bytes);
                socket.getOutputStream().flush();
            } catch (SocketException closedWhileWriting) {
                return false;
            }
            DataInputStream in = new DataInputStream(socket.getInputStream());
            while (true) {
                int size = in.readInt();
                if (size < 4 || size > (64 << 20)) {
                    return false;
                }
                byte[] response = new byte[size];
                in.readFully(response);
                if (ByteBuffer.wrap(response).getInt() == CANARY) {
                    return true;
                }
            }
        } catch (EOFException | SocketException | SocketTimeoutException closedOrQuiet) {
            return false;
        }
    }

    private static byte[] frame(ApiKeys api, short version, int correlationId, ApiMessage request) {
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id).setRequestApiVersion(version)
                .setCorrelationId(correlationId).setClientId("sasl-fuzz");
        ByteBuffer body = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        return framed(bytes);
    }

    private static byte[] framed(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }
}
