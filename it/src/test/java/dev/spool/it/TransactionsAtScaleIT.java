package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions at the scale users run them, with Kafka's Java client against one {@code bin/spool server}: one
 * transaction spanning 2,000 partitions, committed, then one aborted (2,000 partitions added, 4,000 markers written),
 * and 300 transactional ids, eight producers at a time, each committing a transaction over 20 partitions. Every
 * committed record is read once by a read_committed consumer, nothing aborted is, no partition's last stable offset
 * is left behind its high watermark, and the admin client lists and describes every id.
 */
class TransactionsAtScaleIT {

    private static final long TIMEOUT_SECONDS = 120;
    private static final int WIDE_PARTITIONS = 2_000;
    private static final int IDS = 300;
    private static final int PRODUCERS_AT_ONCE = 8;
    private static final int PARTITIONS_PER_ID = 20;

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess();

    private static String bootstrap() {
        return SPOOL.process().bootstrap();
    }

    private static KafkaProducer<String, String> transactional(String transactionalId) {
        return ProduceIT.producer(bootstrap(), Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000));
    }

    @Test
    void oneTransactionOverTwoThousandPartitionsCommitsAndOneAborts() throws Exception {
        String topic = "txn-wide";
        ProduceIT.createTopic(bootstrap(), topic, WIDE_PARTITIONS, Map.of());
        try (KafkaProducer<String, String> producer = transactional("wide")) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int partition = 0; partition < WIDE_PARTITIONS; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, null, "committed-" + partition));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            for (int partition = 0; partition < WIDE_PARTITIONS; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, null, "aborted-" + partition));
            }
            producer.flush();
            producer.abortTransaction();
        }

        List<String> read = ExactlyOnceLoop.readCommitted(bootstrap(), topic, WIDE_PARTITIONS, WIDE_PARTITIONS);
        assertThat(read).hasSize(WIDE_PARTITIONS).doesNotHaveDuplicates()
                .allMatch(value -> value.startsWith("committed-"));
        // Per partition: the committed record, its marker, the aborted record, its marker.
        Map<TopicPartition, Long> stable = endOffsets(topic, WIDE_PARTITIONS, IsolationLevel.READ_COMMITTED);
        assertThat(stable.values()).as("every partition's last stable offset").containsOnly(4L);
        assertThat(endOffsets(topic, WIDE_PARTITIONS, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(stable);
    }

    @Test
    void threeHundredTransactionalIdsCommitAndAreListedAndDescribed() throws Exception {
        String topic = "txn-many-ids";
        int partitions = 200;
        ProduceIT.createTopic(bootstrap(), topic, partitions, Map.of());
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS_AT_ONCE);
        Set<String> ids = new HashSet<>();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < IDS; i++) {
                String id = "many-" + i;
                ids.add(id);
                int first = i * PARTITIONS_PER_ID % partitions;
                done.add(producers.submit(() -> {
                    try (KafkaProducer<String, String> producer = transactional(id)) {
                        producer.initTransactions();
                        producer.beginTransaction();
                        for (int j = 0; j < PARTITIONS_PER_ID; j++) {
                            producer.send(new ProducerRecord<>(topic, (first + j) % partitions, null, id + "-" + j));
                        }
                        producer.commitTransaction();
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            producers.shutdownNow();
        }

        int expected = IDS * PARTITIONS_PER_ID;
        assertThat(ExactlyOnceLoop.readCommitted(bootstrap(), topic, partitions, expected)).hasSize(expected)
                .doesNotHaveDuplicates();
        assertThat(endOffsets(topic, partitions, IsolationLevel.READ_COMMITTED))
                .isEqualTo(endOffsets(topic, partitions, IsolationLevel.READ_UNCOMMITTED));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            Collection<TransactionListing> listed = admin.listTransactions().all().get(TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
            Set<String> listedIds = new HashSet<>();
            listed.forEach(listing -> listedIds.add(listing.transactionalId()));
            assertThat(listedIds).containsAll(ids);
            Map<String, TransactionDescription> described = admin.describeTransactions(ids).all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(described).hasSize(IDS);
            assertThat(described.values()).allSatisfy(description -> {
                assertThat(description.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
                assertThat(description.topicPartitions()).isEmpty();
            });
        }
    }

    private static Map<TopicPartition, Long> endOffsets(String topic, int partitions, IsolationLevel isolation)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            Map<TopicPartition, ListOffsetsResultInfo> answered = admin.listOffsets(latest,
                    new ListOffsetsOptions(isolation)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            answered.forEach((partition, info) -> ends.put(partition, info.offset()));
        }
        return ends;
    }
}
