package dev.spool.it.faults;

import dev.spool.it.history.ClientHistory;
import dev.spool.it.history.EventType;
import dev.spool.it.history.Operation;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;

/** Stateless: a transactional producer's begin and end, recorded in the history. */
final class RecordedTransaction {

    private RecordedTransaction() {
    }

    static void begin(KafkaProducer<String, String> producer, ClientHistory client, String txn) {
        client.transaction(Operation.TXN_BEGIN, EventType.INVOKE, txn, null);
        producer.beginTransaction();
        client.transaction(Operation.TXN_BEGIN, EventType.OK, txn, null);
    }

    /**
     * Commits or aborts, running {@code onCommitted} once a commit is acknowledged; false when it failed, recorded as
     * info (it may have ended either way) and the client instance must be replaced.
     */
    static boolean end(KafkaProducer<String, String> producer, ClientHistory client, String txn, boolean commit,
                       Runnable onCommitted) {
        Operation operation = commit ? Operation.TXN_COMMIT : Operation.TXN_ABORT;
        client.transaction(operation, EventType.INVOKE, txn, null);
        try {
            if (commit) {
                producer.commitTransaction();
                onCommitted.run();
            } else {
                producer.abortTransaction();
            }
            client.transaction(operation, EventType.OK, txn, null);
            return true;
        } catch (KafkaException | IllegalStateException error) {
            client.transaction(operation, EventType.INFO, txn, error);
            return false;
        }
    }
}
