package dev.spool.it;

import static dev.spool.it.MetadataQuorumTool.awaitTrue;
import static dev.spool.it.ReplicatedTopics.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Transactions on a cluster of three: each transaction writes to three partitions led by different brokers, so the
 * coordinator writes most markers with WriteTxnMarkers; then the coordinator's broker is SIGKILLed with a transaction
 * open, another replica of its {@code __transaction_state} partition takes over, and a new producer with the same
 * transactional id goes on. A read_committed consumer reads every committed record once and nothing aborted or left
 * open.
 */
class TransactionCoordinatorFailoverIT {

    private static final String TOPIC = "payments";
    private static final String TRANSACTIONAL_ID = "payments-writer";
    private static final int PARTITIONS = 3;

    @Test
    void committedTransactionsSurviveTheCoordinatorsDeathAndAbortedOnesStayHidden() throws Exception {
        try (SpoolCluster cluster = SpoolCluster.start(3, "broker.session.timeout.ms=3000",
                "broker.heartbeat.interval.ms=500"); Admin admin = admin(cluster.bootstrap())) {
            ReplicatedTopics.create(admin, TOPIC, PARTITIONS, 2);
            List<String> committed = new ArrayList<>();
            try (KafkaProducer<String, String> producer = producer(cluster.bootstrap())) {
                producer.initTransactions();
                for (int i = 0; i < 20; i++) {
                    writeTransaction(producer, "before-" + i, i % 3 != 2, committed);
                }
                // Left open: the broker that coordinates it dies now.
                producer.beginTransaction();
                for (int p = 0; p < PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, null, "open-" + p));
                }
                producer.flush();

                int coordinator = coordinatorOf(admin);
                cluster.kill(coordinator);
                awaitTrue(() -> coordinatorOf(admin) != coordinator, "another broker leading the transactional id's "
                        + "__transaction_state partition");
            }
            try (KafkaProducer<String, String> successor = producer(cluster.bootstrap())) {
                successor.initTransactions(); // on the new coordinator: aborts the open transaction
                for (int i = 0; i < 20; i++) {
                    writeTransaction(successor, "after-" + i, i % 3 != 2, committed);
                }
            }

            List<String> read = ExactlyOnceLoop.readCommitted(cluster.bootstrap(), TOPIC, PARTITIONS, committed.size());
            assertThat(read).as("nothing read twice").doesNotHaveDuplicates();
            assertThat(read).as("every committed record, nothing aborted or left open")
                    .containsExactlyInAnyOrderElementsOf(committed);
        }
    }

    /** One transaction of a record per partition, committed (its values added to {@code committed}) or aborted. */
    private static void writeTransaction(KafkaProducer<String, String> producer, String name, boolean commit,
                                         List<String> committed) {
        producer.beginTransaction();
        List<String> values = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            values.add(name + "-" + p);
            producer.send(new ProducerRecord<>(TOPIC, p, null, name + "-" + p));
        }
        if (commit) {
            producer.commitTransaction();
            committed.addAll(values);
        } else {
            producer.flush();
            producer.abortTransaction();
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "transactional.id", TRANSACTIONAL_ID,
                "max.block.ms", "60000", "transaction.timeout.ms", "120000"), new StringSerializer(),
                new StringSerializer());
    }

    private static int coordinatorOf(Admin admin) throws Exception {
        return ReplicatedTopics.transactionCoordinatorOf(admin, TRANSACTIONAL_ID);
    }
}
