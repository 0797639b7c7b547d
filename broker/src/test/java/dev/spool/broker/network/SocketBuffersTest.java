package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.api.ApiVersionsHandler;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.Endpoint;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.Epoll;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Collection;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * socket.send.buffer.bytes and socket.receive.buffer.bytes reach every connection the server accepts
 * (Kafka's defaults, 102400 each), and -1 (or 0) leaves the operating system's buffers.
 */
class SocketBuffersTest {

    private static final int ASKED = 50_000; // neither a default nor half of one

    @Test
    void theConfiguredBuffersAreSetOnEveryAcceptedConnection() throws Exception {
        BrokerConfig config = new BrokerConfig(Map.of("socket.send.buffer.bytes", String.valueOf(ASKED),
                "socket.receive.buffer.bytes", String.valueOf(ASKED)));

        Buffers accepted = acceptOneWith(NetworkLimits.of(config));

        assertThat(accepted.send()).isIn(ASKED, 2 * ASKED); // Linux doubles it for its bookkeeping
        assertThat(accepted.receive()).isIn(ASKED, 2 * ASKED);
    }

    @Test
    void kafkasDefaultsAreSetUnlessMinusOneOrZeroAsksForTheOperatingSystemsOwn() throws Exception {
        NetworkLimits defaults = NetworkLimits.of(new BrokerConfig(Map.of()));
        assertThat(defaults.sendBufferBytes()).isEqualTo(102_400);
        assertThat(defaults.receiveBufferBytes()).isEqualTo(102_400);

        Buffers untouched = acceptedByAPlainServerSocket();
        for (String value : new String[] {"-1", "0"}) {
            NetworkLimits osDefaults = NetworkLimits.of(new BrokerConfig(Map.of("socket.send.buffer.bytes", value,
                    "socket.receive.buffer.bytes", value)));
            assertThat(acceptOneWith(osDefaults)).as("with " + value).isEqualTo(untouched);
        }
    }

    /**
     * The buffers the kernel gives a loopback connection no option touched, as Netty's transport reads
     * them: Linux reports twice the size asked for, and the JDK halves what Linux reports, Netty's epoll
     * transport does not.
     */
    private static Buffers acceptedByAPlainServerSocket() throws Exception {
        int scale = Epoll.isAvailable() ? 2 : 1;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            return new Buffers(scale * accepted.getSendBufferSize(), scale * accepted.getReceiveBufferSize());
        }
    }

    /** SO_SNDBUF and SO_RCVBUF of an accepted connection, as the kernel reports them. */
    private record Buffers(int send, int receive) {
    }

    private static Buffers acceptOneWith(NetworkLimits limits) throws Exception {
        ApiRegistry registry = new ApiRegistry();
        try (NetworkServer server = new NetworkServer(registry, new ApiVersionsHandler(registry), 1 << 20,
                new NetworkTransport(1), RequestObserver.NONE, limits);
             Socket client = new Socket()) {
            Endpoint bound = server.bind(new Endpoint("PLAINTEXT", "127.0.0.1", 0));
            client.connect(new InetSocketAddress("127.0.0.1", bound.port()));
            long deadline = System.nanoTime() + 10_000_000_000L;
            Collection<Channel> open = server.openConnections();
            while (open.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
                open = server.openConnections();
            }
            assertThat(open).hasSize(1);
            Channel accepted = open.iterator().next();
            return new Buffers(accepted.config().getOption(ChannelOption.SO_SNDBUF),
                    accepted.config().getOption(ChannelOption.SO_RCVBUF));
        }
    }
}
