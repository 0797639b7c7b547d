package dev.spool.broker.metadata;

/**
 * How far a voter of the metadata quorum is, as the quorum's leader sees it: the end of its metadata log in
 * Kafka offsets (-1 when the leader cannot tell) and when the leader last heard from it (-1 likewise). What
 * {@code kafka-metadata-quorum describe --replication} shows per voter. Immutable.
 */
public record VoterProgress(int nodeId, long logEndOffset, long lastContactMs) {
}
