package dev.spool.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.api.ApiRegistry;
import dev.spool.broker.cluster.ControllerChannel;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import dev.spool.protocol.metadata.RegisterBrokerRecordData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ISR a leader asks the controller for: Kafka's order (ascending broker ids, as Kafka 4.4's leader sends its ISR
 * set), no request when only the order differs from the image's, and every change of a check in one request.
 */
class IsrManagerTest {

    private static final long LAG_TIME_MAX_MS = 10_000;

    @TempDir
    Path logDir;
    private PartitionManagerFixture fixture;
    private ScheduledExecutorService scheduler;
    private final List<List<Integer>> asked = new CopyOnWriteArrayList<>();
    private final List<AlterPartitionRequestData> requests = new CopyOnWriteArrayList<>();
    private IsrManager isrs;

    @BeforeEach
    void start() {
        fixture = new PartitionManagerFixture(logDir);
        for (int broker = 1; broker <= 3; broker++) {
            fixture.apply(VersionedRecord.of(MetadataRecordType.REGISTER_BROKER_RECORD, new RegisterBrokerRecordData()
                    .setBrokerId(broker).setBrokerEpoch(10 + broker).setIncarnationId(Uuid.randomUuid())
                    .setFenced(false)));
        }
        BrokerConfig config = new BrokerConfig(Map.of("process.roles", "broker,controller", "node.id", "1",
                "controller.quorum.voters", "1@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "cluster.id", "MkU3OEVBNTcwNTJENDM2Qg"));
        ControllerChannel controller = new ControllerChannel(1, config.cluster(), new ActiveController(), null,
                id -> null);
        controller.answerLocallyWith(new ApiRegistry().register(ApiKey.ALTER_PARTITION, 2, 3,
                AlterPartitionRequestData.class, (context, request) -> {
                    requests.add(request);
                    asked.add(request.topics().get(0).partitions().get(0).newIsrWithEpochs().stream()
                            .map(AlterPartitionRequestData.BrokerState::brokerId).toList());
                    return new CompletableFuture<Message>(); // never answered: the change stays in flight
                }));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        isrs = new IsrManager(1, fixture.partitions(), controller, fixture::image, fixture.clock()::nowMs,
                LAG_TIME_MAX_MS, scheduler, 3_600_000);
    }

    @AfterEach
    void stop() {
        isrs.close();
        scheduler.shutdownNow();
        fixture.close();
    }

    /** Leader 1 serves follower {@code follower} (in broker epoch {@code brokerEpoch}) a fetch from {@code offset}. */
    private void fetched(String topic, int partition, int follower, long brokerEpoch, long offset) throws Exception {
        Partition led = fixture.partitions().get(topic, partition);
        led.onFollowerFetch(1, led.leaderEpoch(), follower, brokerEpoch, offset, 0, fixture.clock().nowMs());
    }

    @Test
    void followersBackInSyncAreAskedForInAscendingBrokerIdOrder() throws Exception {
        fixture.createTopic("lesson", 1, List.of(1, 3, 2));
        Uuid topicId = fixture.image().topic("lesson").id();
        fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(topicId).setPartitionId(0).setIsr(List.of(1))));
        fixture.append("lesson", 0, 10);
        long logEnd = fixture.log("lesson", 0).logEndOffset();
        for (int follower : List.of(3, 2)) {
            fetched("lesson", 0, follower, -1, logEnd);
        }

        isrs.check();

        assertThat(asked).containsExactly(List.of(1, 2, 3));
    }

    @Test
    void everyChangeACheckFindsGoesInOneRequestAndStaysInFlightUntilAnswered() throws Exception {
        int partitions = 500;
        fixture.createTopic("wide", partitions, List.of(1, 2, 3));
        fixture.createTopic("other", 1, List.of(1, 2, 3));
        for (String topic : List.of("wide", "other")) {
            Uuid topicId = fixture.image().topic(topic).id();
            for (int p = 0; p < fixture.image().topic(topic).partitions().size(); p++) {
                fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD,
                        new PartitionChangeRecordData().setTopicId(topicId).setPartitionId(p).setIsr(List.of(1, 3))));
                long logEnd = fixture.log(topic, p).logEndOffset();
                fetched(topic, p, 2, -1, logEnd);
                fetched(topic, p, 3, -1, logEnd);
            }
        }

        isrs.check();
        isrs.check();

        assertThat(requests).as("one request; the second check finds every change in flight").hasSize(1);
        assertThat(requests.get(0).topics()).hasSize(2);
        assertThat(requests.get(0).topics().stream().mapToInt(topic -> topic.partitions().size()).sum())
                .isEqualTo(partitions + 1);
        assertThat(requests.get(0).topics().stream().flatMap(topic -> topic.partitions().stream())
                .map(partition -> partition.newIsrWithEpochs().stream()
                        .map(AlterPartitionRequestData.BrokerState::brokerId).toList()).distinct().toList())
                .containsExactly(List.of(1, 2, 3));
    }

    @Test
    void theSameMembersInReplicaOrderAreNoChange() throws Exception {
        fixture.createTopic("lesson", 1, List.of(3, 1, 2)); // the ISR as the controller made it: 3,1,2
        fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(fixture.image().topic("lesson").id()).setPartitionId(0).setLeader(1)));
        long logEnd = fixture.log("lesson", 0).logEndOffset();
        for (int follower : List.of(3, 2)) {
            fetched("lesson", 0, follower, -1, logEnd);
        }

        isrs.check();

        assertThat(asked).as("every replica in sync: nothing to ask").isEmpty();
    }

    @Test
    void aFollowerRegisteredAgainIsNotTakenBackOnWhatItsLastProcessFetched() throws Exception {
        fixture.createTopic("lesson", 1, List.of(1, 2, 3));
        fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(fixture.image().topic("lesson").id()).setPartitionId(0).setIsr(List.of(1, 3))));
        fixture.append("lesson", 0, 10);
        long logEnd = fixture.log("lesson", 0).logEndOffset();
        fetched("lesson", 0, 2, 12, logEnd);
        fetched("lesson", 0, 3, 13, logEnd);
        assertThat(fixture.log("lesson", 0).highWatermark()).isEqualTo(logEnd);
        // Broker 2 crashed, lost its unflushed tail, and registered again before it fetched.
        fixture.apply(VersionedRecord.of(MetadataRecordType.REGISTER_BROKER_RECORD, new RegisterBrokerRecordData()
                .setBrokerId(2).setBrokerEpoch(40).setIncarnationId(Uuid.randomUuid()).setFenced(false)));

        isrs.check();
        assertThat(asked).as("its old process's progress does not count").isEmpty();

        fetched("lesson", 0, 2, 40, 0);
        isrs.check();
        assertThat(asked).as("its new process fetched from offset 0").isEmpty();

        fetched("lesson", 0, 2, 40, logEnd);
        isrs.check();
        assertThat(asked).as("caught up in its new epoch").containsExactly(List.of(1, 2, 3));
    }

    /** This node leads the quorum: the channel hands the AlterPartition to the registry above. */
    private static final class ActiveController implements MetadataQuorum {
        @Override
        public void setCommitListener(CommitListener listener) {
        }

        @Override
        public void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) {
        }

        @Override
        public CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs) {
            return new CompletableFuture<>();
        }

        @Override
        public void deleteRecordsBefore(long offset) {
        }

        @Override
        public Path snapshotDir() {
            return null;
        }

        @Override
        public void close() {
        }
    }
}
