package dev.spool.broker.api;

import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.ProtocolWriter;
import dev.spool.protocol.types.RawTaggedField;
import dev.spool.protocol.types.ThrottledResponse;
import java.util.List;

/**
 * The answer to a request that gets none on the wire (Produce with acks=0) but whose client is over a quota: nothing
 * is sent, and the connection is not read for the throttle time, as Kafka mutes it. Never written. Not thread-safe.
 */
public final class NoResponse implements ThrottledResponse {

    private int throttleTimeMs;

    public NoResponse(int throttleTimeMs) {
        this.throttleTimeMs = throttleTimeMs;
    }

    @Override
    public int throttleTimeMs() {
        return throttleTimeMs;
    }

    @Override
    public NoResponse setThrottleTimeMs(int value) {
        this.throttleTimeMs = value;
        return this;
    }

    @Override
    public void read(ProtocolReader reader, short version) {
        throw new UnsupportedOperationException("No response is read");
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        throw new UnsupportedOperationException("No response is written");
    }

    @Override
    public int size(short version) {
        return 0;
    }

    @Override
    public List<RawTaggedField> unknownTaggedFields() {
        return List.of();
    }
}
