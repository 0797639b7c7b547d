package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

class PeerDisconnectTest {

    @Test
    void aResetOrBrokenPipeOnTheNioTransportIsTheClientGoingAway() {
        assertThat(PeerDisconnect.isPeerGone(new SocketException("Connection reset"))).isTrue();
        assertThat(PeerDisconnect.isPeerGone(new IOException("Connection reset by peer"))).isTrue();
        assertThat(PeerDisconnect.isPeerGone(new IOException("Broken pipe"))).isTrue();
        assertThat(PeerDisconnect.isPeerGone(new ClosedChannelException())).isTrue();
    }

    @Test
    void aResetOrBrokenPipeOnTheEpollTransportIsTheClientGoingAwayByItsErrno() {
        assumeTrue(Epoll.isAvailable(), "the native epoll transport loads here");
        assertThat(PeerDisconnect.isPeerGone(
                new Errors.NativeIoException("recvAddress(..)", Errors.ERRNO_ECONNRESET_NEGATIVE))).isTrue();
        assertThat(PeerDisconnect.isPeerGone(
                new Errors.NativeIoException("writev(..)", Errors.ERRNO_EPIPE_NEGATIVE))).isTrue();
        assertThat(PeerDisconnect.isPeerGone(
                new Errors.NativeIoException("recvAddress(..)", Errors.ERRNO_ENOENT_NEGATIVE))).isFalse();
    }

    @Test
    void otherFailuresAreNot() {
        assertThat(PeerDisconnect.isPeerGone(new IOException("No space left on device"))).isFalse();
        assertThat(PeerDisconnect.isPeerGone(new IllegalStateException("Connection reset"))).isFalse();
        assertThat(PeerDisconnect.isPeerGone(new DecoderException("bad frame"))).isFalse();
        assertThat(PeerDisconnect.isPeerGone(new IOException((String) null))).isFalse();
    }
}
