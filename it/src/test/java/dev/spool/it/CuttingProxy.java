package dev.spool.it;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * A TCP proxy between Kafka clients and a broker that loses answers: for the Produce requests it is
 * told to, it forwards the request, waits for the broker's response (so the records are surely
 * written), drops that response and cuts the client's connection, as a network failure would. The
 * client sees a disconnect and retries the same batch. While paused, new connections are accepted and
 * closed at once (the broker looks down). Thread-safe.
 */
final class CuttingProxy implements AutoCloseable {

    private static final short PRODUCE_API_KEY = 0;

    private final ServerSocket server;
    private final AtomicInteger produceRequests = new AtomicInteger();
    private final AtomicInteger cuts = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile InetSocketAddress target;
    private volatile IntPredicate cutProduce = ordinal -> false;
    private volatile boolean pauseAfterCut;
    private volatile int laterProduceRequestsBeforeCut;
    private volatile boolean paused;

    CuttingProxy() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "cutting-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    void setTarget(String host, int port) {
        target = new InetSocketAddress(host, port);
    }

    /** Which Produce requests (1-based, counted over all connections) lose their response. */
    void cutProduce(IntPredicate ordinals) {
        cutProduce = ordinals;
    }

    /**
     * Holds a response it will drop until {@code requests} more Produce requests have been forwarded (at
     * most 5 s), so that a pipelining producer surely has them in flight when its connection is cut,
     * however fast the broker answered the one that is lost.
     */
    void laterProduceRequestsBeforeCut(int requests) {
        laterProduceRequestsBeforeCut = requests;
    }

    /** After the next cut, refuse connections until {@link #resume()}. */
    void pauseAfterCut(boolean pause) {
        pauseAfterCut = pause;
    }

    void resume() {
        paused = false;
    }

    int cuts() {
        return cuts.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (paused || target == null) {
                closeSocket(client);
                continue;
            }
            try {
                Socket broker = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(broker);
                Map<Integer, Integer> doomed = new ConcurrentHashMap<>(); // correlation id -> Produce ordinal
                start(() -> pumpRequests(client, broker, doomed));
                start(() -> pumpResponses(broker, client, doomed));
            } catch (IOException e) {
                closeSocket(client);
            }
        }
    }

    private static void start(Runnable pump) {
        Thread thread = new Thread(pump, "cutting-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private void pumpRequests(Socket client, Socket broker, Map<Integer, Integer> doomed) {
        try (DataInputStream in = new DataInputStream(client.getInputStream())) {
            OutputStream out = broker.getOutputStream();
            while (true) {
                byte[] frame = readFrame(in);
                short apiKey = (short) (((frame[4] & 0xff) << 8) | (frame[5] & 0xff));
                if (apiKey == PRODUCE_API_KEY) {
                    int ordinal = produceRequests.incrementAndGet();
                    if (cutProduce.test(ordinal)) {
                        doomed.put(intAt(frame, 8), ordinal);
                    }
                }
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            closeBoth(client, broker);
        }
    }

    private void pumpResponses(Socket broker, Socket client, Map<Integer, Integer> doomed) {
        try (DataInputStream in = new DataInputStream(broker.getInputStream())) {
            OutputStream out = client.getOutputStream();
            while (true) {
                byte[] frame = readFrame(in);
                Integer ordinal = doomed.remove(intAt(frame, 4));
                if (ordinal != null) {
                    awaitProduceRequests(ordinal + laterProduceRequestsBeforeCut);
                    if (pauseAfterCut) {
                        paused = true;
                    }
                    cuts.incrementAndGet();
                    closeBoth(client, broker);
                    return;
                }
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            closeBoth(client, broker);
        }
    }

    private void awaitProduceRequests(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (produceRequests.get() < count && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A whole size-prefixed frame, size included. */
    private static byte[] readFrame(DataInputStream in) throws IOException {
        int size = in.readInt();
        byte[] frame = new byte[4 + size];
        frame[0] = (byte) (size >>> 24);
        frame[1] = (byte) (size >>> 16);
        frame[2] = (byte) (size >>> 8);
        frame[3] = (byte) size;
        in.readFully(frame, 4, size);
        return frame;
    }

    private static int intAt(byte[] bytes, int index) {
        return ((bytes[index] & 0xff) << 24) | ((bytes[index + 1] & 0xff) << 16) | ((bytes[index + 2] & 0xff) << 8)
                | (bytes[index + 3] & 0xff);
    }

    private void closeBoth(Socket a, Socket b) {
        closeSocket(a);
        closeSocket(b);
        open.remove(a);
        open.remove(b);
    }

    private static void closeSocket(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + socket, e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            closeSocket(socket);
        }
    }
}
