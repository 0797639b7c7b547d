package dev.spool.broker.quorum;

import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.VersionedRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
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

    private static final Logger LOG = LoggerFactory.getLogger(MetadataStateMachine.class);

    private final MetadataLog materialized;
    private volatile MetadataQuorum.CommitListener listener = (records, lastOffset) -> { };
    private volatile boolean leaderReady;

    MetadataStateMachine(MetadataLog materialized) {
        this.materialized = materialized;
    }

    void setCommitListener(MetadataQuorum.CommitListener listener) {
        this.listener = listener;
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
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            listener.onCommit(records, lastOffset);
            return CompletableFuture.completedFuture(Message.valueOf(Long.toString(lastOffset)));
        } catch (IOException | RuntimeException e) {
            // A voter that cannot apply a committed entry would diverge from the others: it must stop.
            LOG.error("Cannot apply metadata entry {} (term {})", entry.getIndex(), entry.getTerm(), e);
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void notifyLeaderReady() {
        leaderReady = true;
        LOG.info("This node leads the metadata quorum (term {}): it is the active controller",
                getLastAppliedTermIndex().getTerm());
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        if (leaderReady) {
            LOG.info("This node no longer leads the metadata quorum");
        }
        leaderReady = false;
    }
}
