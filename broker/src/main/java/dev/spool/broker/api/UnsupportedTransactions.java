package dev.spool.broker.api;

import dev.spool.protocol.Errors;

/**
 * Stateless: what a client that asks for a transaction coordinator is told until transactions exist
 * (FindCoordinator with a transactional key, InitProducerId with a transactional id).
 *
 * <p>Design note: the client must learn it at once, not wait. COORDINATOR_NOT_AVAILABLE, what a Kafka broker
 * answers while its coordinator loads, is retried by every client: the Java producer's
 * {@code initTransactions()} until {@code max.block.ms} and then a TimeoutException that names no cause,
 * aiokafka's {@code start()} for ever. INVALID_REQUEST is fatal in all of them: the Java producer throws a
 * KafkaException carrying FindCoordinator's error message, kafkajs's {@code connect()} and aiokafka's
 * {@code start()} fail at the first answer, librdkafka's {@code init_transactions()} at its timeout. It is
 * also Kafka's own answer to a coordinator key type a broker cannot serve (a share group's key before
 * FindCoordinator v6), and its documented meaning is a request "sent to an incompatible broker".
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED would be as fatal but would send the user looking for ACLs that do
 * not exist; UNSUPPORTED_VERSION would blame a version both sides support.
 */
public final class UnsupportedTransactions {

    public static final Errors ERROR = Errors.INVALID_REQUEST;

    private UnsupportedTransactions() {
    }

    /** FindCoordinator's error message for {@code transactionalId} (the Java producer puts it in its exception). */
    public static String message(String transactionalId) {
        return "Transactions are not supported by this broker yet: transactional id '" + transactionalId
                + "' has no coordinator. Produce without transactional.id (idempotence is supported).";
    }
}
