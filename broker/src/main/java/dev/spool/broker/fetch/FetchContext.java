package dev.spool.broker.fetch;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.FetchRequestData;
import dev.spool.protocol.message.FetchRequestData.FetchPartition;
import dev.spool.protocol.message.FetchRequestData.FetchTopic;
import dev.spool.protocol.message.FetchRequestData.ForgottenTopic;
import java.util.ArrayList;
import java.util.List;

/**
 * Immutable (the session it refers to is thread-safe). A fetch request resolved against the fetch sessions
 * (KIP-227): which partitions to read, in which order, and how to answer. Session id 0 with epoch -1 is a
 * full fetch without a session; epoch 0 opens a session (closing the one named, if any); epoch -1 with a
 * session id closes it and fetches in full; any other epoch is an incremental request that must carry the
 * session's expected epoch, adds or updates the partitions it names, drops the forgotten ones, and is
 * answered with only the partitions that changed.
 *
 * @param partitions        what to read, in order
 * @param responseSessionId the session id to answer with (0: none)
 * @param session           the session to record what was sent in, or null
 * @param incremental       whether unchanged partitions are left out of the response
 * @param error             a top-level error that answers the request without reading, or NONE
 */
record FetchContext(List<FetchPartitionState> partitions, int responseSessionId, FetchSession session,
                    boolean incremental, Errors error) {

    static FetchContext resolve(FetchRequestData request, short version, FetchSessionCache sessions, long nowMs) {
        boolean usesTopicIds = version >= 13;
        int sessionId = request.sessionId();
        int epoch = request.sessionEpoch();
        if (epoch == FetchSession.FINAL_EPOCH || epoch == FetchSession.INITIAL_EPOCH) {
            if (sessionId != 0) {
                sessions.remove(sessionId);
            }
            List<FetchPartitionState> partitions = fromRequest(request.topics(), usesTopicIds);
            FetchSession session = epoch == FetchSession.INITIAL_EPOCH && !partitions.isEmpty()
                    ? sessions.maybeCreate(usesTopicIds, partitions, nowMs) : null;
            return new FetchContext(partitions, session == null ? 0 : session.id(), session, false, Errors.NONE);
        }
        FetchSession session = sessions.get(sessionId);
        if (session == null) {
            return failed(Errors.FETCH_SESSION_ID_NOT_FOUND);
        }
        synchronized (session) {
            if (session.nextEpoch() != epoch) {
                return failed(Errors.INVALID_FETCH_SESSION_EPOCH);
            }
            if (session.usesTopicIds() != usesTopicIds) {
                return failed(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
            }
            session.advanceEpoch(nowMs);
            for (FetchTopic topic : request.topics()) {
                for (FetchPartition partition : topic.partitions()) {
                    session.upsert(key(topic, partition.partition(), usesTopicIds), partition.fetchOffset(),
                            partition.partitionMaxBytes(), partition.currentLeaderEpoch());
                }
            }
            for (ForgottenTopic forgotten : request.forgottenTopicsData()) {
                for (int partition : forgotten.partitions()) {
                    session.forget(usesTopicIds ? FetchPartitionKey.byId(forgotten.topicId(), partition)
                            : FetchPartitionKey.byName(forgotten.topic(), partition));
                }
            }
            return new FetchContext(session.partitions(), session.id(), session, true, Errors.NONE);
        }
    }

    private static FetchContext failed(Errors error) {
        return new FetchContext(List.of(), 0, null, false, error);
    }

    private static List<FetchPartitionState> fromRequest(List<FetchTopic> topics, boolean usesTopicIds) {
        List<FetchPartitionState> partitions = new ArrayList<>();
        for (FetchTopic topic : topics) {
            for (FetchPartition partition : topic.partitions()) {
                partitions.add(new FetchPartitionState(key(topic, partition.partition(), usesTopicIds),
                        partition.fetchOffset(), partition.partitionMaxBytes(), partition.currentLeaderEpoch(),
                        partition.lastFetchedEpoch(), partition.logStartOffset()));
            }
        }
        return partitions;
    }

    private static FetchPartitionKey key(FetchTopic topic, int partition, boolean usesTopicIds) {
        return usesTopicIds ? FetchPartitionKey.byId(topic.topicId(), partition)
                : FetchPartitionKey.byName(topic.topic(), partition);
    }
}
