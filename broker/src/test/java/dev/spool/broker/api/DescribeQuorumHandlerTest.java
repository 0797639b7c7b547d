package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.cluster.ClusterView;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.metadata.MetadataImage;
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
}
