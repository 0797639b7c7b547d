package dev.spool.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerSessionsTest {

    private static final long SESSION_MS = 9_000;
    private final BrokerSessions sessions = new BrokerSessions(SESSION_MS);
    private final InetSocketAddress brokerTwo = new InetSocketAddress("127.0.0.1", 40_002);
    private final InetSocketAddress brokerThree = new InetSocketAddress("127.0.0.1", 40_003);

    @Test
    void aSessionExpiresAfterTheTimeoutWithoutAHeartbeat() {
        sessions.touch(2, 1_000, brokerTwo);

        assertThat(sessions.isExpired(2, 1_000 + SESSION_MS)).isFalse();
        assertThat(sessions.isExpired(2, 1_001 + SESSION_MS)).isTrue();
    }

    @Test
    void theClosingOfABrokersHeartbeatConnectionEndsItsSessionAtOnceAndNoOtherOne() {
        sessions.touch(2, 1_000, brokerTwo);
        sessions.touch(3, 1_000, brokerThree);

        sessions.onConnectionClosed(new InetSocketAddress("127.0.0.1", 40_009)); // a client's connection
        assertThat(sessions.expired(List.of(2, 3), 1_001)).isEmpty();

        sessions.onConnectionClosed(brokerTwo);
        assertThat(sessions.expired(List.of(2, 3), 1_001)).containsExactly(2);
        assertThat(sessions.isExpired(3, 1_001)).isFalse();
    }

    @Test
    void aHeartbeatOnANewConnectionStartsTheSessionAgainAndTheOldConnectionNoLongerCounts() {
        sessions.touch(2, 1_000, brokerTwo);
        sessions.onConnectionClosed(brokerTwo);
        InetSocketAddress reconnected = new InetSocketAddress("127.0.0.1", 40_102);

        sessions.touch(2, 2_000, reconnected);
        assertThat(sessions.isExpired(2, 2_001)).isFalse();
        sessions.onConnectionClosed(brokerTwo);
        assertThat(sessions.isExpired(2, 2_001)).as("the old connection's close is old news").isFalse();
        sessions.onConnectionClosed(reconnected);
        assertThat(sessions.isExpired(2, 2_001)).isTrue();
    }

    @Test
    void aControllerThatBecomesActiveGivesEveryBrokerAFullSessionWhateverItsConnections() {
        sessions.touch(2, 1_000, brokerTwo);
        sessions.restartAll(List.of(2), 5_000);

        sessions.onConnectionClosed(brokerTwo);
        assertThat(sessions.isExpired(2, 5_001)).as("heartbeats on this controller's connections count").isFalse();
    }

    @Test
    void anEndedSessionIsExpiredUntilTheNextHeartbeat() {
        sessions.touch(2, 1_000, brokerTwo);
        sessions.end(2);
        assertThat(sessions.isExpired(2, 1_001)).isTrue();

        sessions.touch(2, 1_500, brokerTwo);
        assertThat(sessions.isExpired(2, 1_501)).isFalse();
    }

    @Test
    void aBrokerGivenASessionByANewControllerIsNotHeardFromUntilItsFirstHeartbeat() {
        sessions.restartAll(List.of(2, 3), 1_000);
        assertThat(sessions.notHeardSinceRestart(2)).isTrue();

        sessions.touch(2, 1_200, brokerTwo);

        assertThat(sessions.notHeardSinceRestart(2)).isFalse();
        assertThat(sessions.notHeardSinceRestart(3)).isTrue();
        assertThat(sessions.notHeardSinceRestart(4)).as("never given a session").isFalse();
    }
}
