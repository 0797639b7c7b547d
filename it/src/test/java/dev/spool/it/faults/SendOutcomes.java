package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.LogPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Stateless: records how a send ended. Only errors that the client or broker raise before the record is stored are a
 * {@code fail} (the checker then expects the value nowhere); every other error, a delivery timeout above all, is
 * {@code info}, since the write may have reached the log before the answer was lost.
 */
final class SendOutcomes {

    private SendOutcomes() {
    }

    static void recordEnding(ClientHistory history, LogPartition partition, String value, long offset, Exception error) {
        recordEnding(history, null, partition, value, offset, error);
    }

    /** As above, for a send in transaction {@code txn} (null outside one). */
    static void recordEnding(ClientHistory history, String txn, LogPartition partition, String value, long offset,
                             Exception error) {
        if (error == null) {
            history.sendAcknowledged(txn, partition, value, offset);
        } else if (definitelyNotWritten(error)) {
            history.sendFailed(txn, partition, value, error);
        } else {
            history.sendIndeterminate(txn, partition, value, error);
        }
    }

    /** Errors a broker answers before appending, or the client raises before sending. */
    static boolean definitelyNotWritten(Exception error) {
        return error instanceof RecordTooLargeException || error instanceof InvalidTopicException
                || error instanceof AuthorizationException || error instanceof SerializationException;
    }
}
