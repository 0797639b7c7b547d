package dev.spool.broker.api;

import dev.spool.broker.metadata.NotControllerException;
import dev.spool.protocol.Errors;
import java.util.concurrent.CompletionException;

/** The error code a controller API answers for a metadata change that failed. Stateless. */
public final class ControllerErrors {

    private ControllerErrors() {
    }

    /** NOT_CONTROLLER when this node is not (or stopped being) the active controller, else UNKNOWN_SERVER_ERROR. */
    public static short codeOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return (cause instanceof NotControllerException ? Errors.NOT_CONTROLLER : Errors.UNKNOWN_SERVER_ERROR).code();
    }
}
