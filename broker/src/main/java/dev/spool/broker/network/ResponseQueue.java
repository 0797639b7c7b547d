package dev.spool.broker.network;

import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayDeque;

/**
 * Keeps a connection's responses in request order: Kafka clients match responses to requests by
 * order as well as by correlation id. A request takes a slot when it arrives; a response completes
 * its slot and every completed slot at the head is written. Not thread-safe: used on the channel's
 * event loop only.
 */
final class ResponseQueue {

    /** A response to come, or one that came ahead of its turn. */
    static final class Slot {
        private OutboundResponse response;
        private boolean done;
    }

    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    private Runnable whenEmpty;

    Slot reserve() {
        Slot slot = new Slot();
        slots.addLast(slot);
        return slot;
    }

    /**
     * Completes a slot with its serialized response (whose pieces it now owns), or with null for a
     * request that has none (Produce with acks=0), then writes what is now in order.
     */
    void complete(ChannelHandlerContext ctx, Slot slot, OutboundResponse response) {
        slot.response = response;
        slot.done = true;
        boolean wrote = false;
        while (!slots.isEmpty() && slots.peekFirst().done) {
            Slot head = slots.pollFirst();
            if (head.response != null) {
                head.response.writeTo(ctx);
                wrote = true;
            }
        }
        if (wrote) {
            ctx.flush();
        }
        if (slots.isEmpty() && whenEmpty != null) {
            Runnable then = whenEmpty;
            whenEmpty = null;
            then.run();
        }
    }

    /** Runs {@code then} once every response reserved so far has been written: now, if none is waiting. */
    void whenEmpty(Runnable then) {
        if (slots.isEmpty()) {
            then.run();
        } else {
            whenEmpty = then;
        }
    }

    /** Releases responses still waiting for their turn, when the connection closes. */
    void releaseAll() {
        for (Slot slot : slots) {
            if (slot.response != null) {
                slot.response.release();
            }
        }
        slots.clear();
        whenEmpty = null;
    }
}
