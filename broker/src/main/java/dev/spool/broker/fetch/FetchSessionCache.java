package dev.spool.broker.fetch;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Thread-safe. The broker's incremental fetch sessions (KIP-227), at most
 * {@code max.incremental.fetch.session.cache.slots} of them. When full, a new session takes the slot of one
 * idle for {@code evictionMs} (Kafka's {@code min.incremental.fetch.session.eviction.ms}, 120 s), else of
 * the least recently used session smaller than itself, else it is not created and the fetcher goes on with
 * full requests.
 */
public final class FetchSessionCache {

    /** Kafka's session eviction guard: a session unused this long may always be evicted. */
    public static final long DEFAULT_EVICTION_MS = 120_000L;

    private final int maxSessions;
    private final long evictionMs;
    /** In access order: least recently used first. */
    private final LinkedHashMap<Integer, FetchSession> sessions = new LinkedHashMap<>(16, 0.75f, true);

    public FetchSessionCache(int maxSessions, long evictionMs) {
        this.maxSessions = maxSessions;
        this.evictionMs = evictionMs;
    }

    /** The session with this id, marked as just used, or null. */
    public synchronized FetchSession get(int sessionId) {
        return sessions.get(sessionId);
    }

    public synchronized void remove(int sessionId) {
        sessions.remove(sessionId);
    }

    public synchronized int size() {
        return sessions.size();
    }

    /** A new session holding {@code partitions}, or null when no slot can be had. */
    synchronized FetchSession maybeCreate(boolean usesTopicIds, List<FetchPartitionState> partitions, long nowMs) {
        if (maxSessions <= 0 || (sessions.size() >= maxSessions && !maybeEvict(partitions.size(), nowMs))) {
            return null;
        }
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        FetchSession session = new FetchSession(id, usesTopicIds, partitions, nowMs);
        sessions.put(id, session);
        return session;
    }

    private boolean maybeEvict(int newSessionSize, long nowMs) {
        FetchSession smaller = null;
        for (Iterator<FetchSession> it = sessions.values().iterator(); it.hasNext(); ) {
            FetchSession session = it.next();
            if (nowMs - session.lastUsedMs() >= evictionMs) {
                it.remove();
                return true;
            }
            if (smaller == null && session.size() < newSessionSize) {
                smaller = session;
            }
        }
        if (smaller != null) {
            sessions.remove(smaller.id());
            return true;
        }
        return false;
    }
}
