package dev.spool.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class InFlightRequestsTest {

    @Test
    void aChannelStopsReadingAtTheLimitAndResumesBelowIt() {
        InFlightRequests inFlight = new InFlightRequests(3);
        EmbeddedChannel channel = new EmbeddedChannel();
        inFlight.started(channel);
        inFlight.started(channel);
        assertThat(channel.config().isAutoRead()).isTrue();
        inFlight.started(channel);
        assertThat(channel.config().isAutoRead()).as("the request that reached the limit stops reading").isFalse();
        inFlight.started(channel); // frames already read are still dispatched
        inFlight.finished(channel);
        assertThat(channel.config().isAutoRead()).as("still at the limit").isFalse();
        inFlight.finished(channel);
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(inFlight.inFlight()).isEqualTo(2);
        inFlight.finished(channel);
        inFlight.finished(channel);
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(inFlight.inFlight()).isZero();
    }
}
