package dev.spool.broker;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a layer of the broker opened, closed in the reverse order: the last opened first, so that nothing
 * is closed while something opened after it (and using it) still runs. A failed close is logged and the
 * rest still close. Not thread-safe: a layer registers while it starts, on the starting thread, and is
 * closed once.
 */
final class Closer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Closer.class);

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Registers {@code resource} to be closed before everything registered earlier; returns it. */
    <T extends AutoCloseable> T register(T resource) {
        opened.push(resource);
        return resource;
    }

    /** {@code resource} is closed by another resource that owns it now (a server its transport, say). */
    void handOver(AutoCloseable resource) {
        opened.remove(resource);
    }

    @Override
    public void close() {
        while (!opened.isEmpty()) {
            AutoCloseable resource = opened.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.error("Error while closing {}", resource, e);
            }
        }
    }
}
