package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.metadata.BrokerRegistration;
import dev.spool.broker.metadata.BrokerRegistrations;
import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VoterProgress;
import dev.spool.broker.quorum.QuorumVoter;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeQuorumRequestData;
import dev.spool.protocol.message.DescribeQuorumResponseData;
import dev.spool.protocol.types.Uuid;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class DescribeQuorumHandlerTest {

    private final DescribeQuorumHandler handler = new DescribeQuorumHandler(4, Uuid.ZERO_UUID,
            () -> MetadataImage.EMPTY, () -> new ClusterView("cluster", 4,
            List.of(new ClusterView.BrokerNode(4, new Endpoint("PLAINTEXT", "broker.test", 9092), null))), () -> 77L);

    private DescribeQuorumResponseData describe(int version, String topic, int partition) {
        return describe(handler, version, topic, partition);
    }

    private static DescribeQuorumResponseData describe(DescribeQuorumHandler handler, int version, String topic,
                                                       int partition) {
        DescribeQuorumRequestData request = new DescribeQuorumRequestData().setTopics(List.of(
                new DescribeQuorumRequestData.TopicData().setTopicName(topic).setPartitions(List.of(
                        new DescribeQuorumRequestData.PartitionData().setPartitionIndex(partition)))));
        return (DescribeQuorumResponseData) handler.handle(new RequestContext(ApiKey.DESCRIBE_QUORUM, (short) version,
                1, "tool", new InetSocketAddress("127.0.0.1", 5555)), request).join();
    }

    @Test
    void theMetadataPartitionHasThisNodeAsLeaderAndOnlyVoterAndOthersAreUnknown() {
        DescribeQuorumResponseData.PartitionData metadata = describe(2, "__cluster_metadata", 0).topics().get(0)
                .partitions().get(0);
        assertThat(metadata.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(metadata.leaderId()).isEqualTo(4);
        assertThat(metadata.currentVoters()).singleElement().satisfies(voter -> {
            assertThat(voter.replicaId()).isEqualTo(4);
            assertThat(voter.logEndOffset()).isEqualTo(metadata.highWatermark());
            assertThat(voter.lastCaughtUpTimestamp()).isEqualTo(77L);
        });
        assertThat(describe(2, "__cluster_metadata", 0).nodes()).singleElement()
                .satisfies(node -> assertThat(node.listeners().get(0).host()).isEqualTo("broker.test"));

        assertThat(describe(1, "__cluster_metadata", 1).topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(describe(1, "orders", 0).topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    @Test
    void aVoterOfAClusterDescribesTheLeaderTheVotersProgressAndTheObservers() {
        MetadataImage image = MetadataImage.EMPTY;
        for (int id : new int[] {1, 2, 3, 4}) { // 4 is a broker-only node
            MetadataChange<Long> registration = BrokerRegistrations.register(image, id, new Uuid(id, id),
                    List.of(new BrokerRegistration.Listener("PLAINTEXT", "broker-" + id, 9092, (short) 0)));
            image = image.apply(registration.records(), registration.result());
        }
        MetadataImage registered = image;
        DescribeQuorumHandler voter = new DescribeQuorumHandler(1, Uuid.ZERO_UUID, () -> registered,
                () -> new ClusterView("cluster", 1, List.of()), () -> 1_000L, () -> 1, () -> 7,
                now -> List.of(new VoterProgress(2, registered.offset() + 1, now - 100)),
                () -> List.of(new QuorumVoter(1, "c1", 9093), new QuorumVoter(2, "c2", 9093),
                        new QuorumVoter(3, "c3", 9093, new Uuid(3, 3))),
                "CONTROLLER");
        DescribeQuorumResponseData response = describe(voter, 2, "__cluster_metadata", 0);
        DescribeQuorumResponseData.PartitionData metadata = response.topics().get(0).partitions().get(0);
        assertThat(metadata.leaderId()).isEqualTo(1);
        assertThat(metadata.leaderEpoch()).isEqualTo(7);
        assertThat(metadata.currentVoters()).extracting(DescribeQuorumResponseData.ReplicaState::replicaId)
                .containsExactly(1, 2, 3);
        assertThat(metadata.currentVoters().get(1).logEndOffset()).isEqualTo(metadata.highWatermark());
        assertThat(metadata.currentVoters().get(1).lastCaughtUpTimestamp()).isEqualTo(900L);
        assertThat(metadata.currentVoters().get(2).logEndOffset()).as("not heard of: unknown").isEqualTo(-1);
        assertThat(metadata.currentVoters().get(2).replicaDirectoryId()).as("a dynamic quorum's voter's directory")
                .isEqualTo(new Uuid(3, 3));
        assertThat(metadata.observers()).extracting(DescribeQuorumResponseData.ReplicaState::replicaId)
                .containsExactly(4);
        assertThat(response.nodes()).extracting(DescribeQuorumResponseData.Node::nodeId).containsExactly(1, 2, 3);
        assertThat(response.nodes().get(2).listeners().get(0).name()).isEqualTo("CONTROLLER");
    }
}
