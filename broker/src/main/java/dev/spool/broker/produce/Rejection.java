package dev.spool.broker.produce;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ProduceResponseData.BatchIndexAndErrorMessage;
import java.util.List;

/**
 * Immutable: why one partition's records of a produce request were refused: the error code, a message
 * for the client, and for per-record problems (Produce v8+, KIP-467) the index of each bad record in
 * its batch with what is wrong with it.
 */
public record Rejection(Errors error, String message, List<BatchIndexAndErrorMessage> recordErrors) {

    public static Rejection of(Errors error, String message) {
        return new Rejection(error, message, List.of());
    }
}
