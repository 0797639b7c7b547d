package dev.spool.broker.coordinator;

import java.io.IOException;

/**
 * The state a coordinator keeps for one partition of its internal topic (a group coordinator's groups and
 * offsets of one {@code __consumer_offsets} partition, say), rebuilt from that partition's records when this
 * broker becomes its leader and dropped when it stops being the leader. A {@link CoordinatorRuntime} calls
 * every method on the shard's own thread; implementations need no locks and are not thread-safe.
 */
public interface CoordinatorShard {

    /** Replays the partition's records into a fresh state; called once, before any operation. */
    void load() throws IOException;

    /**
     * The shard is loaded and serves: work that must follow the load (which may need {@code afterCommit} of the
     * runtime, not available while loading) starts here.
     */
    default void onLoaded() {
    }

    /**
     * The partition is no longer led here (or the broker stops): answer every request still parked in the
     * shard with NOT_COORDINATOR. The runtime has cancelled the shard's timers; no operation follows.
     */
    void unload();
}
