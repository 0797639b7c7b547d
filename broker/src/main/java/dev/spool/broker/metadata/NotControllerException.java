package dev.spool.broker.metadata;

/**
 * A metadata change reached a node that is not the active controller (or stopped being it before the change
 * committed); Kafka answers NOT_CONTROLLER, and the sender retries at the active controller.
 */
public final class NotControllerException extends IllegalStateException {

    public NotControllerException(int nodeId) {
        super("node " + nodeId + " is not the active controller");
    }
}
