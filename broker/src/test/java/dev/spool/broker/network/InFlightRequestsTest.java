package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class InFlightRequestsTest {

    @Test
    void aChannelStopsReadingAtTheLimitAndResumesBelowIt() {
        InFlightRequests inFlight = new InFlightRequests(3);
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        inFlight.started(first);
        inFlight.started(second);
        assertThat(first.config().isAutoRead()).isTrue();
        inFlight.started(second);
        assertThat(second.config().isAutoRead()).as("the request that reached the limit stops its channel").isFalse();
        assertThat(first.config().isAutoRead()).isTrue();
        inFlight.started(first);
        assertThat(first.config().isAutoRead()).isFalse();

        inFlight.finished();
        assertThat(inFlight.inFlight()).isEqualTo(3);
        assertThat(first.config().isAutoRead()).as("still at the limit").isFalse();
        inFlight.finished();
        assertThat(first.config().isAutoRead()).isTrue();
        assertThat(second.config().isAutoRead()).isTrue();
    }
}
