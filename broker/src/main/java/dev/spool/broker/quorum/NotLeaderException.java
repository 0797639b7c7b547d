package dev.spool.broker.quorum;

/** A proposal reached a voter that is not the quorum's ready leader; Kafka answers NOT_CONTROLLER. */
public final class NotLeaderException extends IllegalStateException {

    public NotLeaderException(int nodeId) {
        super("node " + nodeId + " is not the active controller");
    }
}
