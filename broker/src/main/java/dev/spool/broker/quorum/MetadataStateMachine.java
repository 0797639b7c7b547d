package dev.spool.broker.quorum;

import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.VersionedRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataSnapshot;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft state machine of the metadata quorum: each log entry is one Kafka record batch of metadata
 * records. Applying an entry appends the batch to the Kafka-format {@code __cluster_metadata} log at the
 * next offset (Kafka offsets are dense; Raft indexes also count Raft's own entries), with the Raft term as
 * its leader epoch, and tells the commit listener; the entry's answer is the batch's last offset. Nothing is
 * decided here: ids, placement and clock reads happened in the controller before the entry was proposed,
 * so every voter applies the same records to the same offsets. {@link #applyTransaction} runs on Ratis'
 * one apply thread; the leader flag is volatile.
 */
final class MetadataStateMachine extends BaseStateMachine {

    /** Entries whose offsets are remembered for {@link #logEndOffsetAt}: far more than a follower lags. */
    private static final int RECENT_ENTRIES = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(MetadataStateMachine.class);

    private final MetadataLog materialized;
    private final CheckpointStorage storage;
    private volatile MetadataQuorum.CommitListener listener = (records, lastOffset) -> { };
    private volatile Supplier<MetadataImage> image = () -> MetadataImage.EMPTY;
    private volatile boolean leaderReady;
    /** Run once, when Ratis stops this voter on its own; cleared when the node closes it on purpose. */
    private final AtomicReference<Runnable> shutdownHandler = new AtomicReference<>();
    /** The Kafka offset of the last record of recent entries, by Raft index: how far a follower's index reaches. */
    private final ConcurrentSkipListMap<Long, Long> recentLastOffsets = new ConcurrentSkipListMap<>();
    /** The leader epoch of the last record applied (the term of its entry): the epoch a snapshot is named by. */
    private volatile int lastRecordEpoch;

    MetadataStateMachine(MetadataLog materialized, CheckpointStorage storage) {
        this.materialized = materialized;
        this.storage = storage;
    }

    /** The image as published, which snapshots write: it holds every entry applied so far. */
    void setImageSource(Supplier<MetadataImage> image) {
        this.image = image;
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /** Starts after the newest snapshot: Ratis applies the entries after the index it covers. */
    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        getLifeCycle().startAndTransition(() -> {
            storage.init(raftStorage);
            SnapshotInfo latest = storage.getLatestSnapshot();
            if (latest != null) {
                updateLastAppliedTermIndex(latest.getTerm(), latest.getIndex());
                lastRecordEpoch = MetadataSnapshot.epochOf(checkpointOf(latest));
            }
        });
    }

    /** Before Ratis installs the leader's snapshot: nothing is applied until {@link #reinitialize}. */
    @Override
    public void pause() {
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            return; // Ratis pauses once per chunk of the snapshot it receives
        }
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /**
     * After this voter installed the leader's snapshot (it had fallen behind what the others' logs still hold):
     * the image and the Kafka-format log start over from it.
     */
    @Override
    public void reinitialize() throws IOException {
        SnapshotInfo latest = storage.getLatestSnapshot();
        if (latest != null) {
            Path checkpoint = checkpointOf(latest);
            MetadataImage installed = MetadataSnapshot.load(checkpoint);
            materialized.startAt(installed.offset() + 1);
            lastRecordEpoch = MetadataSnapshot.epochOf(checkpoint);
            updateLastAppliedTermIndex(latest.getTerm(), latest.getIndex());
            LOG.info("Installed the metadata snapshot up to offset {} (Raft index {})", installed.offset(),
                    latest.getIndex());
            listener.onReset(installed);
        }
        getLifeCycle().transition(LifeCycle.State.STARTING);
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    /** The checkpoint file of a snapshot {@link CheckpointStorage} listed (its first file; the Raft file follows). */
    private static Path checkpointOf(SnapshotInfo snapshot) {
        return snapshot.getFiles().get(0).getPath();
    }

    /**
     * Writes a Kafka checkpoint of the image (which holds every entry applied so far: this runs on the apply
     * thread, between entries) and forgets the Kafka-format log before the older snapshot kept; returns the Raft
     * index it covers.
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex applied = getLastAppliedTermIndex();
        MetadataImage current = image.get();
        if (applied == null || current.offset() < 0) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        storage.write(current, applied, lastRecordEpoch, System.currentTimeMillis());
        storage.cleanupOldSnapshots(null);
        // The log is kept from the older snapshot on: a broker a little behind goes on fetching records; only
        // one further behind fetches a snapshot.
        Path oldest = storage.oldestKept();
        if (oldest != null) {
            materialized.deleteRecordsBefore(MetadataSnapshot.offsetOf(oldest));
        }
        LOG.info("Snapshot of the metadata up to offset {} (Raft index {})", current.offset(), applied.getIndex());
        return applied.getIndex();
    }

    /**
     * Ratis closed this voter (a JVM pause longer than its close threshold, say): it takes no part in the quorum
     * any more, so the node must stop rather than serve stale metadata as a zombie.
     */
    @Override
    public void notifyServerShutdown(RaftProtos.RoleInfoProto roleInfo, boolean allServer) {
        if (!allServer) {
            stopNode();
        }
    }

    /**
     * Ratis closes a voter's state machine when the voter closes, and also when a committed configuration leaves it
     * out (AddRaftVoter / RemoveRaftVoter removed it from the quorum): unless the node closed it on purpose, the node
     * stops, for the same reason as above.
     */
    @Override
    public void close() throws IOException {
        stopNode();
        super.close();
    }

    private void stopNode() {
        Runnable stop = shutdownHandler.getAndSet(null);
        if (stop != null) {
            stop.run();
        }
    }

    void setShutdownHandler(Runnable handler) {
        shutdownHandler.set(handler);
    }

    void setCommitListener(MetadataQuorum.CommitListener listener) {
        this.listener = listener;
    }

    /**
     * The end of the Kafka-format log of a voter that has the Raft log up to {@code raftIndex}: one past the last
     * record of the entries up to it; -1 when that index is older than the entries remembered.
     */
    long logEndOffsetAt(long raftIndex) {
        Map.Entry<Long, Long> reached = recentLastOffsets.floorEntry(raftIndex);
        if (reached == null) {
            return -1;
        }
        return reached.getValue() + 1;
    }

    /** Whether this voter is the leader and has applied every entry of earlier terms: it may propose. */
    boolean isLeaderReady() {
        return leaderReady;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        ByteBuffer data = entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer();
        // A writable copy: the append stamps the offsets and the leader epoch into the batch.
        ByteBuffer batch = ByteBuffer.allocate(data.remaining()).put(data).flip();
        try {
            List<VersionedRecord> records = MetadataLog.decode(batch.duplicate());
            long lastOffset = materialized.appendCommitted(batch, (int) entry.getTerm());
            listener.onCommit(records, lastOffset);
            lastRecordEpoch = (int) entry.getTerm();
            recentLastOffsets.put(entry.getIndex(), lastOffset);
            if (recentLastOffsets.size() > RECENT_ENTRIES) {
                recentLastOffsets.pollFirstEntry();
            }
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.valueOf(Long.toString(lastOffset)));
        } catch (IOException | RuntimeException e) {
            // A voter that cannot apply a committed entry would diverge from the others (the next entries would
            // get other offsets): it stops. Thrown, the failure also stops Ratis' apply thread, which closes the
            // Raft server; the node is told to stop either way.
            LOG.error("Cannot apply metadata entry {} (term {}): this node stops", entry.getIndex(), entry.getTerm(),
                    e);
            stopNode();
            throw new IllegalStateException("Cannot apply metadata entry " + entry.getIndex(), e);
        }
    }

    @Override
    public void notifyLeaderReady() {
        leaderReady = true;
        LOG.info("This node leads the metadata quorum (term {}): it is the active controller", currentTerm());
    }

    /** The Raft term as this voter's server knows it, or -1 (for the log only). */
    private long currentTerm() {
        try {
            return getServer().getNow(null).getDivision(getGroupId()).getInfo().getCurrentTerm();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        if (leaderReady) {
            LOG.info("This node no longer leads the metadata quorum");
        }
        leaderReady = false;
    }
}
