package dev.spool.broker.partition;

import dev.spool.log.PartitionLog;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe. Loads partitions' producer state for readers that need it before any append did: the last stable
 * offset of a read_committed Fetch or ListOffsets is unknown until the open transactions are (a log loads its
 * producer state lazily, so that a start reads nothing per partition). Loading reads the log, so it runs on a thread
 * of its own ({@code spool-producer-state}), never on the network thread that asked; the reader answers as if no
 * record were stable yet and asks again.
 */
public final class ProducerStateLoads implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerStateLoads.class);

    /** Loads in the caller: for tests and tools, where no network thread asks. */
    public static final ProducerStateLoads IN_CALLER = new ProducerStateLoads(null);

    private final ExecutorService thread;
    private final Set<PartitionLog> pending = ConcurrentHashMap.newKeySet();

    private ProducerStateLoads(ExecutorService thread) {
        this.thread = thread;
    }

    /** Loads on a thread of its own, stopped by {@link #close}. */
    public static ProducerStateLoads onOwnThread() {
        return new ProducerStateLoads(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "spool-producer-state");
            thread.setDaemon(true);
            return thread;
        }));
    }

    /** Loads {@code partition}'s producer state (once, however often asked meanwhile), then tells its waiters. */
    void request(Partition partition) {
        PartitionLog log = partition.log();
        if (thread == null) {
            load(partition, log);
            return;
        }
        if (pending.add(log)) {
            try {
                thread.execute(() -> {
                    try {
                        load(partition, log);
                    } finally {
                        pending.remove(log);
                    }
                });
            } catch (RejectedExecutionException e) {
                pending.remove(log); // closing
            }
        }
    }

    private static void load(Partition partition, PartitionLog log) {
        try {
            log.loadProducerState();
            partition.notifyAppended(); // a parked read_committed fetch may now read up to the last stable offset
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot load the producer state of {}: {}", partition, e.toString());
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
