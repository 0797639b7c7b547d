package dev.spool.broker.metadata;

import dev.spool.log.LogClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * <p>Design note: a command decides against the published image, which holds every earlier proposal because
 * each command waits until its records are committed and published before the next one runs. On one node that
 * costs nothing (the local quorum commits as it appends); on a Raft quorum it costs a round trip per command,
 * which metadata changes can afford. Only the active controller decides: elsewhere a command fails with
 * {@link NotControllerException}.
 */
public final class MetadataController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataController.class);

    /** As Kafka's controller answers a request it could not commit (request.timeout.ms of its clients). */
    private static final long COMMIT_TIMEOUT_MS = 30_000;

    private final int nodeId;
    private final MetadataQuorum quorum;
    private final Supplier<MetadataImage> image;
    private final LogClock clock;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread worker = new Thread(runnable, "spool-metadata");
        worker.setDaemon(true);
        return worker;
    });

    public MetadataController(int nodeId, MetadataQuorum quorum, Supplier<MetadataImage> image, LogClock clock) {
        this.nodeId = nodeId;
        this.quorum = quorum;
        this.image = image;
        this.clock = clock;
    }

    /**
     * Runs a command on the controller thread: it sees the current image and returns the records to propose
     * and its result. The future completes after the records are committed and applied.
     */
    public <T> CompletableFuture<T> submit(Function<MetadataImage, MetadataChange<T>> command) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            thread.execute(() -> decide(command, result));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new NotControllerException(nodeId)); // closing
        }
        return result;
    }

    /**
     * Runs a command and proposes its records; answers once they are committed and published, so that the next
     * command decides against an image that holds them. The local quorum has committed when propose returns; a
     * Raft quorum takes a round trip to a majority, or never when it has lost it: the command then fails with a
     * timeout, as Kafka's controller times a request out, but the thread still waits for the proposal's outcome,
     * since the records may yet commit and no later command may decide as if they had not.
     */
    private <T> void decide(Function<MetadataImage, MetadataChange<T>> command, CompletableFuture<T> result) {
        try {
            if (!quorum.isActiveController()) {
                throw new NotControllerException(nodeId);
            }
            MetadataChange<T> change = command.apply(image.get());
            if (!change.records().isEmpty()) {
                CompletableFuture<Long> proposal = quorum.propose(change.records(), clock.nowMs());
                try {
                    proposal.get(COMMIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    result.completeExceptionally(new TimeoutException("the metadata quorum did not commit within "
                            + COMMIT_TIMEOUT_MS + " ms"));
                    awaitOutcome(proposal);
                    return;
                }
            }
            result.complete(change.result());
        } catch (ExecutionException e) {
            result.completeExceptionally(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(e);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    private static void awaitOutcome(CompletableFuture<Long> proposal) throws InterruptedException {
        try {
            proposal.get();
        } catch (ExecutionException e) {
            LOG.warn("A metadata proposal that timed out failed: {}", e.getCause().toString());
        }
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
