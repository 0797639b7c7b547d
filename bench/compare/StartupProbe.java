import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Times a broker's start-up as a client sees it: from the launch to the first answered Metadata
 * request. Single-threaded command line tool.
 *
 * <p>Usage: {@code java -cp DIR StartupProbe HOST:PORT TIMEOUT_S}. The probe prints {@code WARM} and
 * waits for a line on standard input, written by the harness when it launches the broker. From then
 * on it connects every 10 ms and, once connected, sends a Metadata v12 request for all topics (the
 * first request a client's bootstrap needs) and waits up to 2 s for its answer; it prints
 * {@code SERVED <epoch_ms>} when an answer with the request's correlation id comes and exits 0, or
 * exits 1 when the timeout passes first. It speaks the protocol itself rather than through a Kafka
 * client, so that no client start-up (about 0.3 s of Admin client set-up per attempt) is counted.
 */
public final class StartupProbe {
    private static final short METADATA = 3;
    private static final short METADATA_VERSION = 12;
    private static final int CORRELATION_ID = 7;

    private StartupProbe() {
    }

    /** size, request header v2 (api key, version, correlation id, client id, no tags), Metadata v12 body. */
    static byte[] metadataRequest() {
        byte[] clientId = "spool-bench-startup-probe".getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + 1 + 4);
        frame.putInt(frame.capacity() - 4);
        frame.putShort(METADATA).putShort(METADATA_VERSION).putInt(CORRELATION_ID);
        frame.putShort((short) clientId.length).put(clientId);
        frame.put((byte) 0);           // header tagged fields: none
        frame.put((byte) 0);           // topics: null (compact nullable array) = all topics
        frame.put((byte) 0);           // allow_auto_topic_creation: false
        frame.put((byte) 0);           // include_topic_authorized_operations: false
        frame.put((byte) 0);           // body tagged fields: none
        return frame.array();
    }

    /** True when the broker answered the request with its correlation id. */
    private static boolean served(String host, int port, byte[] request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 100);
            socket.setSoTimeout(2000);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int size = in.readInt();
            return size >= 4 && in.readInt() == CORRELATION_ID;
        } catch (IOException notYet) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        long timeoutMs = Long.parseLong(args[1]) * 1000;
        String host = bootstrap.substring(0, bootstrap.lastIndexOf(':'));
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        byte[] request = metadataRequest();
        if (served(host, port, request)) {
            System.out.println("SERVED before the broker was launched: is something else on " + bootstrap + "?");
            System.exit(1);
        }
        System.out.println("WARM");
        System.out.flush();
        InputStream stdin = System.in;
        int read;
        do {
            read = stdin.read(); // the launch
        } while (read != '\n' && read != -1);
        long deadlineMs = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadlineMs) {
            if (served(host, port, request)) {
                System.out.println("SERVED " + System.currentTimeMillis());
                return;
            }
            Thread.sleep(10);
        }
        System.out.println("TIMEOUT");
        System.exit(1);
    }
}
