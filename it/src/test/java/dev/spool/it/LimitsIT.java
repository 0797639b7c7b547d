package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The network limits with Kafka's names: max.connections.per.ip and max.connections (the connection
 * beyond is closed at once, the others and other addresses keep working; 127.0.0.x addresses stand for
 * different hosts), connections.max.idle.ms (a silent connection is closed, a busy one is not),
 * queued.max.requests (a client pipelining far more requests than the limit gets every answer, in
 * order), and a crowd of idle and slowloris connections that does not starve a well-behaved producer.
 */
class LimitsIT {

    @Test
    void connectionsBeyondThePerIpLimitAreClosedAndOtherAddressesAreServed() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("max.connections.per.ip=5")) {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    Socket socket = connect(spool, "127.0.0.2");
                    sockets.add(socket);
                    assertAnswersApiVersions(socket, i);
                }
                try (Socket sixth = connect(spool, "127.0.0.2")) {
                    assertClosed(sixth);
                }
                try (Socket other = connect(spool, "127.0.0.3")) {
                    assertAnswersApiVersions(other, 9);
                }
                assertAdminWorks(spool);
                sockets.remove(0).close();
                Socket again = awaitAccepted(spool, "127.0.0.2");
                sockets.add(again);
            } finally {
                closeAll(sockets);
            }
            assertThat(spool.awaitOutput(line -> line.contains("max.connections.per.ip (5) reached"), 10_000)).isTrue();
        }
    }

    @Test
    void connectionsBeyondTheBrokerLimitAreClosed() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("max.connections=6")) {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    Socket socket = connect(spool, "127.0.0." + (10 + i));
                    sockets.add(socket);
                    assertAnswersApiVersions(socket, i);
                }
                try (Socket seventh = connect(spool, "127.0.0.20")) {
                    assertClosed(seventh);
                }
                sockets.remove(0).close();
                sockets.add(awaitAccepted(spool, "127.0.0.21"));
            } finally {
                closeAll(sockets);
            }
            assertThat(spool.awaitOutput(line -> line.contains("max.connections (6) reached"), 10_000)).isTrue();
        }
    }

    @Test
    void idleConnectionsAreClosedAndBusyOnesAreNot() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("connections.max.idle.ms=1000");
             Socket idle = connect(spool, "127.0.0.1");
             Socket busy = connect(spool, "127.0.0.1")) {
            long start = System.nanoTime();
            for (int i = 0; i < 10; i++) {
                assertAnswersApiVersions(busy, i);
                Thread.sleep(300);
            }
            idle.setSoTimeout(5_000);
            assertClosed(idle);
            long closedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(closedAfterMs).isBetween(900L, 5_000L);
            assertAnswersApiVersions(busy, 99);
        }
    }

    @Test
    void aClientPipeliningFarBeyondQueuedMaxRequestsGetsEveryAnswerInOrder() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start("queued.max.requests=4");
             Socket socket = connect(spool, "127.0.0.1")) {
            int requests = 2_000;
            ByteBuffer all = ByteBuffer.allocate(requests * apiVersions(0).length);
            for (int i = 0; i < requests; i++) {
                all.put(apiVersions(i));
            }
            Thread writer = new Thread(() -> {
                try {
                    socket.getOutputStream().write(all.array());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writer.start();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            for (int i = 0; i < requests; i++) {
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                assertThat(ByteBuffer.wrap(response).getInt()).as("correlation id of answer %d", i).isEqualTo(i);
            }
            writer.join(10_000);
            assertAdminWorks(spool);
        }
    }

    @Test
    void idleAndSlowlorisConnectionsDoNotStarveAWellBehavedProducer() throws Exception {
        try (SpoolProcess spool = SpoolProcess.start()) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic("steady", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            List<Socket> crowd = new ArrayList<>();
            AtomicBoolean dribbling = new AtomicBoolean(true);
            Thread slowloris = null;
            try {
                for (int i = 0; i < 300; i++) {
                    crowd.add(connect(spool, "127.0.1." + (1 + i % 200)));
                }
                List<Socket> slow = crowd.subList(0, 100);
                byte[] frame = apiVersions(7);
                slowloris = new Thread(() -> {
                    // Each slow connection sends its request one byte every 100 ms, over and over.
                    for (int at = 0; dribbling.get(); at = (at + 1) % frame.length) {
                        for (Socket socket : slow) {
                            try {
                                socket.getOutputStream().write(frame[at]);
                            } catch (IOException e) {
                                // closed by the broker: fine for a slow client
                            }
                        }
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                slowloris.start();
                long worstMs = 0;
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                        new StringSerializer(), new StringSerializer())) {
                    producer.send(new ProducerRecord<>("steady", "warm-up")).get(30, TimeUnit.SECONDS);
                    for (int i = 0; i < 200; i++) {
                        long start = System.nanoTime();
                        producer.send(new ProducerRecord<>("steady", "k", "v" + i)).get(10, TimeUnit.SECONDS);
                        worstMs = Math.max(worstMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                    }
                }
                System.out.printf("LimitsIT: 200 acks=all sends beside 200 idle and 100 slowloris connections, "
                        + "slowest %d ms%n", worstMs);
                assertThat(worstMs).as("slowest send, ms").isLessThan(2_000);
                assertThat(spool.isAlive()).isTrue();
            } finally {
                dribbling.set(false);
                if (slowloris != null) {
                    slowloris.join(5_000);
                }
                closeAll(crowd);
            }
        }
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private static Socket connect(SpoolProcess spool, String fromAddress) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(fromAddress), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", spool.port()), 10_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** A new connection from {@code fromAddress} that the broker serves, once a freed slot is seen. */
    private static Socket awaitAccepted(SpoolProcess spool, String fromAddress) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Socket socket = connect(spool, fromAddress);
            try {
                assertAnswersApiVersions(socket, 42);
                return socket;
            } catch (AssertionError | IOException e) {
                socket.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    private static byte[] apiVersions(int correlationId) {
        byte[] clientId = "limits".getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(14 + clientId.length).putInt(10 + clientId.length).putShort((short) 18)
                .putShort((short) 0).putInt(correlationId).putShort((short) clientId.length).put(clientId).array();
    }

    private static void assertAnswersApiVersions(Socket socket, int correlationId) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(apiVersions(correlationId));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int size;
        try {
            size = in.readInt();
        } catch (java.io.EOFException | SocketException e) {
            throw new AssertionError("the broker closed a connection within the limits", e);
        }
        byte[] response = new byte[size];
        in.readFully(response);
        assertThat(ByteBuffer.wrap(response).getInt()).isEqualTo(correlationId);
    }

    private static void assertClosed(Socket socket) throws IOException {
        try {
            assertThat(socket.getInputStream().read()).as("the broker closes the connection").isEqualTo(-1);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the broker kept the connection open", e);
        } catch (SocketException e) {
            // reset: closed
        }
    }

    private static void assertAdminWorks(SpoolProcess spool) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap()))) {
            assertThat(admin.describeCluster().nodes().get(20, TimeUnit.SECONDS)).hasSize(1);
        }
    }
}
