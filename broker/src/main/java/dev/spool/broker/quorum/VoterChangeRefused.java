package dev.spool.broker.quorum;

import dev.spool.protocol.Errors;

/** A voter change the quorum did not make, with the error Kafka answers for it and a message that says why. */
public final class VoterChangeRefused extends RuntimeException {

    private final Errors error;

    public VoterChangeRefused(Errors error, String message) {
        super(message);
        this.error = error;
    }

    public Errors error() {
        return error;
    }
}
