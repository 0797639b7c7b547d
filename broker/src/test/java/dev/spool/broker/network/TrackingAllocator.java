package dev.spool.broker.network;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * An unpooled allocator that remembers every buffer it made, so that a test can check each was
 * released: the paranoid leak detector only reports a leak when the garbage collector finds it,
 * which a short test may never see. Give it to the channel ({@code config().setAllocator}) and
 * allocate the test's own input from it. Not thread-safe: one test, one thread.
 */
final class TrackingAllocator extends AbstractByteBufAllocator {

    private final List<ByteBuf> allocated = new ArrayList<>();

    TrackingAllocator() {
        super(false);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return track(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return track(new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** The buffers made here whose reference count has not reached zero. */
    List<ByteBuf> unreleased() {
        return allocated.stream().filter(buffer -> buffer.refCnt() != 0).toList();
    }

    private ByteBuf track(ByteBuf buffer) {
        allocated.add(buffer);
        return buffer;
    }
}
