package dev.spool.broker.metadata;

import dev.spool.log.LogClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides metadata changes: commands run one at a time on the controller thread against the latest image,
 * and the records they return are proposed to the {@link MetadataQuorum}; a command's future completes once
 * its records are committed and published. Clock reads and id choices happen in the commands, here, never
 * while records are applied. Request handlers never block on it; they chain on the future. Thread-safe.
 *
 * <p>Design note: a command decides against the published image, which already holds every earlier proposal
 * because the local quorum commits as it appends. A Raft quorum commits later; the controller will then keep
 * the image of its own proposals not yet committed and decide against that.
 */
public final class MetadataController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataController.class);

    private final MetadataQuorum quorum;
    private final Supplier<MetadataImage> image;
    private final LogClock clock;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread worker = new Thread(runnable, "spool-metadata");
        worker.setDaemon(true);
        return worker;
    });

    public MetadataController(MetadataQuorum quorum, Supplier<MetadataImage> image, LogClock clock) {
        this.quorum = quorum;
        this.image = image;
        this.clock = clock;
    }

    /**
     * Runs a command on the controller thread: it sees the current image and returns the records to propose
     * and its result. The future completes after the records are committed and applied.
     */
    public <T> CompletableFuture<T> submit(Function<MetadataImage, MetadataChange<T>> command) {
        return CompletableFuture.supplyAsync(() -> {
            MetadataChange<T> change = command.apply(image.get());
            if (!change.records().isEmpty()) {
                // The local quorum has committed when propose returns, so this join does not wait; a failed
                // append fails the command's future with its cause.
                quorum.propose(change.records(), clock.nowMs()).join();
            }
            return change.result();
        }, thread);
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Metadata thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
