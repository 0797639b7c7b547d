package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterPartitionRequestData;
import dev.spool.protocol.message.AlterPartitionResponseData;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IsrChangesTest {

    private MetadataImage image;
    private TopicImage topic;
    private PartitionImage partition;

    @BeforeEach
    void aTopicOnThreeBrokers() {
        image = TopicControllerTest.threeBrokersWithTopic("t");
        topic = image.topic("t");
        partition = topic.partitions().get(0);
    }

    private AlterPartitionRequestData request(int brokerId, int leaderEpoch, int partitionEpoch, List<Integer> isr) {
        List<AlterPartitionRequestData.BrokerState> members = new ArrayList<>();
        for (int member : isr) {
            members.add(new AlterPartitionRequestData.BrokerState().setBrokerId(member)
                    .setBrokerEpoch(image.brokers().get(member).brokerEpoch()));
        }
        return new AlterPartitionRequestData().setBrokerId(brokerId)
                .setBrokerEpoch(image.brokers().get(brokerId).brokerEpoch())
                .setTopics(List.of(new AlterPartitionRequestData.TopicData().setTopicId(topic.id())
                        .setPartitions(List.of(new AlterPartitionRequestData.PartitionData().setPartitionIndex(0)
                                .setLeaderEpoch(leaderEpoch).setPartitionEpoch(partitionEpoch)
                                .setNewIsrWithEpochs(members)))));
    }

    private static AlterPartitionResponseData.PartitionData answer(MetadataChange<AlterPartitionResponseData> change) {
        return change.result().topics().get(0).partitions().get(0);
    }

    @Test
    void theLeaderShrinksAndGrowsTheIsrAndEachChangeBumpsThePartitionEpoch() {
        int leader = partition.leader();
        List<Integer> shrunk = new ArrayList<>(partition.isr());
        Integer dropped = shrunk.remove(shrunk.size() - 1);
        MetadataChange<AlterPartitionResponseData> shrink = IsrChanges.alter(image,
                request(leader, partition.leaderEpoch(), partition.partitionEpoch(), shrunk));
        assertThat(answer(shrink).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answer(shrink).isr()).isEqualTo(shrunk);
        assertThat(answer(shrink).partitionEpoch()).isEqualTo(partition.partitionEpoch() + 1);
        MetadataImage after = image.apply(shrink.records(), image.offset() + 1);
        PartitionImage changed = after.topic("t").partitions().get(0);
        assertThat(changed.isr()).isEqualTo(shrunk);
        assertThat(changed.leaderEpoch()).as("the same leadership").isEqualTo(partition.leaderEpoch());

        assertThat(answer(IsrChanges.alter(after, request(leader, partition.leaderEpoch(), partition.partitionEpoch(),
                partition.isr()))).errorCode()).as("an old partition epoch")
                .isEqualTo(Errors.INVALID_UPDATE_VERSION.code());
        image = after;
        List<Integer> grown = new ArrayList<>(shrunk);
        grown.add(dropped);
        assertThat(answer(IsrChanges.alter(after, request(leader, changed.leaderEpoch(), changed.partitionEpoch(),
                grown))).errorCode()).isEqualTo(Errors.NONE.code());
    }

    @Test
    void onlyTheLeaderInItsEpochMayChangeTheIsrAndOnlyWithEligibleReplicas() {
        int leader = partition.leader();
        int follower = partition.replicas().stream().filter(id -> id != leader).findFirst().orElseThrow();
        assertThat(answer(IsrChanges.alter(image, request(follower, partition.leaderEpoch(),
                partition.partitionEpoch(), partition.isr()))).errorCode())
                .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(answer(IsrChanges.alter(image, request(leader, partition.leaderEpoch() - 1,
                partition.partitionEpoch(), partition.isr()))).errorCode())
                .isEqualTo(Errors.FENCED_LEADER_EPOCH.code());
        assertThat(answer(IsrChanges.alter(image, request(leader, partition.leaderEpoch(),
                partition.partitionEpoch(), List.of(follower)))).errorCode()).as("without the leader")
                .isEqualTo(Errors.INVALID_REQUEST.code());
        AlterPartitionRequestData stale = request(leader, partition.leaderEpoch(), partition.partitionEpoch(),
                partition.isr()).setBrokerEpoch(-5);
        assertThat(IsrChanges.alter(image, stale).result().errorCode()).isEqualTo(Errors.STALE_BROKER_EPOCH.code());

        MetadataChange<Boolean> fence = BrokerRegistrations.fence(image, follower);
        MetadataImage fenced = image.apply(fence.records(), image.offset() + fence.records().size());
        PartitionImage without = fenced.topic("t").partitions().get(0);
        assertThat(without.isr()).doesNotContain(follower);
        image = fenced;
        List<Integer> back = new ArrayList<>(without.isr());
        back.add(follower);
        assertThat(answer(IsrChanges.alter(fenced, request(leader, without.leaderEpoch(), without.partitionEpoch(),
                back))).errorCode()).as("a fenced broker does not rejoin")
                .isEqualTo(Errors.INELIGIBLE_REPLICA.code());
        assertThat(answer(IsrChanges.alter(image, new AlterPartitionRequestData().setBrokerId(leader)
                .setBrokerEpoch(image.brokers().get(leader).brokerEpoch()).setTopics(List.of(
                        new AlterPartitionRequestData.TopicData().setTopicId(Uuid.randomUuid())
                                .setPartitions(List.of(new AlterPartitionRequestData.PartitionData())))))).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
    }
}
