package dev.spool.broker.fetch;

import dev.spool.broker.api.Access;
import dev.spool.broker.api.ApiHandler;
import dev.spool.broker.api.RequestContext;
import dev.spool.broker.purgatory.ThreadWaitTimer;
import dev.spool.broker.purgatory.WaitTimer;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.log.index.AbortedTxn;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchResponseData;
import dev.spool.protocol.message.FetchResponseData.AbortedTransaction;
import dev.spool.protocol.message.FetchResponseData.FetchableTopicResponse;
import dev.spool.protocol.message.FetchResponseData.PartitionData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Thread-safe. Fetch, for consumers (v4 to v18; topic ids from v13): resolves the request against the fetch
 * sessions, reads the partitions within the byte limits, and answers at once when {@code min_bytes} are
 * there, the wait is 0 or a partition failed; otherwise parks the request as a {@link DelayedFetch} until
 * appends bring enough bytes or {@code max_wait_ms} passes. Records are answered as regions of the segment
 * files, sent with sendfile. {@code read_committed} reads up to the last stable offset and is told the aborted
 * transactions among what it read, which the client drops.
 */
public final class FetchHandler implements ApiHandler, AutoCloseable {

    private static final byte READ_COMMITTED = 1;
    private static final int NO_PREFERRED_READ_REPLICA = -1;
    private static final short FIRST_VERSION_WITH_REPLICA_STATE = 15;
    private static final String METADATA_TOPIC = "__cluster_metadata";

    private final FetchReader reader;
    private final ConsumerFetchQuota quota;
    private final FetchSessionCache sessions;
    private final LongSupplier clockMs;
    private final WaitTimer waits;
    private final AutoCloseable ownedTimer;

    /** With a wait thread of its own ({@code spool-fetch-waits}), closed with this. */
    public FetchHandler(PartitionLookup lookup, FetchSessionCache sessions, LongSupplier clockMs) {
        this(lookup, sessions, clockMs, new ThreadWaitTimer("spool-fetch-waits"), true, FollowerReadThrottle.NONE,
                ConsumerFetchQuota.NONE);
    }

    /** Parked fetches are checked and time out on {@code waits}, which its owner closes. */
    public FetchHandler(PartitionLookup lookup, FetchSessionCache sessions, LongSupplier clockMs, WaitTimer waits) {
        this(lookup, sessions, clockMs, waits, FollowerReadThrottle.NONE);
    }

    /** As above, followers' reads held back by the leader's replication {@code throttle}. */
    public FetchHandler(PartitionLookup lookup, FetchSessionCache sessions, LongSupplier clockMs, WaitTimer waits,
                        FollowerReadThrottle throttle) {
        this(lookup, sessions, clockMs, waits, false, throttle, ConsumerFetchQuota.NONE);
    }

    /** As above, consumers held to their {@code consumer_byte_rate} by {@code quota}. */
    public FetchHandler(PartitionLookup lookup, FetchSessionCache sessions, LongSupplier clockMs, WaitTimer waits,
                        FollowerReadThrottle throttle, ConsumerFetchQuota quota) {
        this(lookup, sessions, clockMs, waits, false, throttle, quota);
    }

    private FetchHandler(PartitionLookup lookup, FetchSessionCache sessions, LongSupplier clockMs, WaitTimer waits,
                         boolean ownsWaits, FollowerReadThrottle throttle, ConsumerFetchQuota quota) {
        this.quota = quota;
        this.reader = new FetchReader(lookup, throttle);
        this.sessions = sessions;
        this.clockMs = clockMs;
        this.waits = waits;
        this.ownedTimer = ownsWaits && waits instanceof AutoCloseable closeable ? closeable : () -> { };
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message message) {
        FetchRequestData request = (FetchRequestData) message;
        FetchContext fetch = FetchContext.resolve(request, context.apiVersion(), sessions, clockMs.getAsLong());
        if (fetch.error() != Errors.NONE) {
            return CompletableFuture.completedFuture(new FetchResponseData().setErrorCode(fetch.error().code())
                    .setSessionId(0));
        }
        boolean readCommitted = request.isolationLevel() == READ_COMMITTED;
        // A follower names itself (and, from v15, its broker epoch) in ReplicaState, or before in ReplicaId; a
        // consumer is -1.
        int namedReplica = replicaIdOf(request, context.apiVersion());
        long replicaEpoch = context.apiVersion() >= FIRST_VERSION_WITH_REPLICA_STATE
                ? request.replicaState().replicaEpoch() : -1;
        // As Kafka: a follower's fetch without CLUSTER_ACTION gets TOPIC_AUTHORIZATION_FAILED on each partition.
        boolean refusedFollower = namedReplica >= 0
                && !context.access().allowsOnCluster(AclOperation.CLUSTER_ACTION);
        int replicaId = refusedFollower ? -1 : namedReplica;
        Predicate<String> readable = refusedFollower ? topic -> false : readableTopics(context.access());
        boolean consumer = replicaId < 0;
        // As Kafka: a consumer asks for no more than its quota allows in a window, and waits for no more than that.
        ConsumerFetchQuota.Meter meter = consumer ? quota.of(context) : null;
        int maxBytes = meter != null ? Math.min(request.maxBytes(), meter.maxBytes()) : request.maxBytes();
        int minBytes = Math.min(request.minBytes(), maxBytes);
        Function<FetchReader.Result, Message> answer = result -> meter != null
                ? respondWithinQuota(meter, fetch, result, readCommitted) : respond(fetch, result, readCommitted);
        FetchReader.Result first = reader.read(fetch.partitions(), maxBytes, replicaId, replicaEpoch,
                clockMs.getAsLong(), readCommitted, readable);
        if (request.maxWaitMs() <= 0 || fetch.partitions().isEmpty() || first.recordBytes() >= minBytes
                || first.anyError()) {
            return CompletableFuture.completedFuture(answer.apply(first));
        }
        List<DelayedFetch.Watch> watches = new ArrayList<>(first.reads().size());
        for (PartitionRead read : first.reads()) {
            DelayedFetch.Bound bound = replicaId >= 0 ? DelayedFetch.Bound.LOG_END
                    : readCommitted ? DelayedFetch.Bound.LAST_STABLE_OFFSET : DelayedFetch.Bound.HIGH_WATERMARK;
            watches.add(new DelayedFetch.Watch(read.partition(), read.readBound(),
                    Math.max(0, read.state().partitionMaxBytes()), bound));
        }
        DelayedFetch delayed = new DelayedFetch(() -> reader.read(fetch.partitions(), maxBytes, replicaId,
                replicaEpoch, clockMs.getAsLong(), readCommitted, readable),
                answer, minBytes, first.recordBytes(), watches);
        delayed.park(waits, request.maxWaitMs());
        return delayed.answer();
    }

    /** The broker a follower's fetch names (in ReplicaState from v15, in ReplicaId before), or -1: a consumer's. */
    public static int replicaIdOf(FetchRequestData request, short version) {
        return version >= FIRST_VERSION_WITH_REPLICA_STATE ? request.replicaState().replicaId() : request.replicaId();
    }

    /**
     * The topics a consumer may read: READ on the topic, decided once per topic per request; the metadata log
     * (served on a controller) only with CLUSTER_ACTION, as Kafka's controller serves it to its quorum alone.
     */
    private static Predicate<String> readableTopics(Access access) {
        if (access == Access.ALL) {
            return topic -> true;
        }
        Map<String, Boolean> decided = new ConcurrentHashMap<>(); // a parked fetch reads again on another thread
        return topic -> decided.computeIfAbsent(topic, name -> name.equals(METADATA_TOPIC)
                ? access.allowsOnCluster(AclOperation.CLUSTER_ACTION) : access.allowsTopic(AclOperation.READ, name));
    }

    /** The consumer's answer, or an empty one telling it to wait when what was read would put it over its quota. */
    private FetchResponseData respondWithinQuota(ConsumerFetchQuota.Meter meter, FetchContext fetch,
                                                 FetchReader.Result result, boolean readCommitted) {
        long throttleMs = meter.admit(result.recordBytes());
        if (throttleMs == 0) {
            return respond(fetch, result, readCommitted);
        }
        int sessionId = fetch.responseSessionId();
        if (!fetch.incremental() && sessionId != 0) {
            // As Kafka: a session is made only by a full fetch that sends something; the client starts again.
            sessions.remove(sessionId);
            sessionId = 0;
        }
        return new FetchResponseData().setErrorCode(Errors.NONE.code()).setSessionId(sessionId)
                .setResponses(new ArrayList<>()).setThrottleTimeMs((int) Math.min(Integer.MAX_VALUE, throttleMs));
    }

    private static FetchResponseData respond(FetchContext fetch, FetchReader.Result result, boolean readCommitted) {
        FetchSession session = fetch.session();
        if (session == null) {
            return build(fetch, result, readCommitted);
        }
        synchronized (session) {
            return build(fetch, result, readCommitted);
        }
    }

    private static FetchResponseData build(FetchContext fetch, FetchReader.Result result, boolean readCommitted) {
        FetchSession session = fetch.session();
        List<FetchableTopicResponse> topics = new ArrayList<>();
        FetchableTopicResponse topic = null;
        FetchPartitionKey topicKey = null;
        for (PartitionRead read : result.reads()) {
            FetchPartitionState state = read.state();
            int recordBytes = read.records().sizeInBytes();
            if (session != null) {
                boolean changed = state.recordSent(read.error(), recordBytes, read.highWatermark(),
                        read.lastStableOffset(), read.logStartOffset());
                if (recordBytes > 0) {
                    session.moveToBack(state.key());
                }
                if (fetch.incremental() && !changed) {
                    continue;
                }
            }
            FetchPartitionKey key = state.key();
            if (topic == null || !topicKey.sameTopic(key)) {
                topic = new FetchableTopicResponse()
                        .setTopic(key.usesTopicId() ? "" : key.topic())
                        .setTopicId(key.usesTopicId() ? key.topicId() : Uuid.ZERO_UUID)
                        .setPartitions(new ArrayList<>());
                topicKey = key;
                topics.add(topic);
            }
            PartitionData answer = new PartitionData()
                    .setPartitionIndex(key.partition())
                    .setErrorCode(read.error().code())
                    .setHighWatermark(read.highWatermark())
                    .setLastStableOffset(read.lastStableOffset())
                    .setLogStartOffset(read.logStartOffset())
                    .setAbortedTransactions(abortedTransactions(read))
                    .setPreferredReadReplica(NO_PREFERRED_READ_REPLICA)
                    .setRecords(read.records());
            if (read.divergingEpoch() != null) {
                answer.setDivergingEpoch(read.divergingEpoch());
            }
            if (read.error() == Errors.NOT_LEADER_OR_FOLLOWER && read.partition() != null) {
                // Where the leader is (KIP-951): the client goes there without refreshing its metadata first.
                answer.setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch()
                        .setLeaderId(read.partition().assignment().leader())
                        .setLeaderEpoch(read.partition().leaderEpoch()));
            }
            topic.partitions().add(answer);
        }
        return new FetchResponseData()
                .setErrorCode(Errors.NONE.code())
                .setSessionId(fetch.responseSessionId())
                .setResponses(topics);
    }

    /** Null for a read_uncommitted read (the field's default), as Kafka answers it. */
    private static List<AbortedTransaction> abortedTransactions(PartitionRead read) {
        List<AbortedTxn> aborted = read.abortedTransactions();
        if (aborted == null) {
            return null;
        }
        List<AbortedTransaction> answered = new ArrayList<>(aborted.size());
        for (AbortedTxn txn : aborted) {
            answered.add(new AbortedTransaction().setProducerId(txn.producerId()).setFirstOffset(txn.firstOffset()));
        }
        return answered;
    }

    @Override
    public void close() {
        try {
            ownedTimer.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the fetch wait timer", e);
        }
    }
}
