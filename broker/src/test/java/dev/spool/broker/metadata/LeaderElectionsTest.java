package dev.spool.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ElectLeadersRequestData;
import dev.spool.protocol.message.ElectLeadersResponseData;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The controller's elections against an image of three brokers and one partition on all three. */
class LeaderElectionsTest {

    private MetadataImage image;

    @BeforeEach
    void aTopicOnThreeBrokers() {
        image = TopicControllerTest.threeBrokersWithTopic("t");
    }

    private static MetadataImage apply(MetadataImage image, MetadataChange<?> change) {
        return image.apply(change.records(), image.offset() + change.records().size());
    }

    private PartitionImage partition() {
        return image.topic("t").partitions().get(0);
    }

    private ElectLeadersResponseData.PartitionResult elect(byte type) {
        MetadataChange<ElectLeadersResponseData> change = LeaderElections.elect(image, new ElectLeadersRequestData()
                .setElectionType(type).setTopicPartitions(List.of(new ElectLeadersRequestData.TopicPartitions()
                        .setTopic("t").setPartitions(List.of(0)))), ElectionRules.DEFAULTS);
        image = apply(image, change);
        return change.result().replicaElectionResults().get(0).partitionResult().get(0);
    }

    @Test
    void thePreferredReplicaLeadsAgainOnlyOnceItIsAnUnfencedIsrMember() {
        int preferred = partition().replicas().get(0);
        assertThat(elect(LeaderElections.PREFERRED).errorCode()).isEqualTo(Errors.ELECTION_NOT_NEEDED.code());
        image = apply(image, BrokerRegistrations.fence(image, preferred));
        assertThat(partition().leader()).isNotEqualTo(preferred);
        assertThat(elect(LeaderElections.PREFERRED).errorCode()).as("fenced, and out of the ISR")
                .isEqualTo(Errors.PREFERRED_LEADER_NOT_AVAILABLE.code());
        image = apply(image, BrokerRegistrations.unfence(image, preferred));
        assertThat(elect(LeaderElections.PREFERRED).errorCode()).as("unfenced, but not back in the ISR")
                .isEqualTo(Errors.PREFERRED_LEADER_NOT_AVAILABLE.code());
    }

    @Test
    void anUncleanElectionTakesAnyUnfencedReplicaWhenNoIsrMemberIsLeft() {
        PartitionImage before = partition();
        assertThat(elect(LeaderElections.UNCLEAN).errorCode()).as("it has a leader")
                .isEqualTo(Errors.ELECTION_NOT_NEEDED.code());
        for (int replica : before.replicas()) {
            image = apply(image, BrokerRegistrations.fence(image, replica));
        }
        int last = before.replicas().get(before.replicas().size() - 1);
        assertThat(partition().leader()).isEqualTo(-1);
        assertThat(partition().isr()).isEmpty();
        assertThat(partition().elr()).as("the last in sync, fenced: eligible once back").containsExactly(last);
        assertThat(elect(LeaderElections.UNCLEAN).errorCode()).as("every replica fenced")
                .isEqualTo(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE.code());
        int other = before.replicas().stream().filter(id -> id != last).findFirst().orElseThrow();
        image = apply(image, BrokerRegistrations.unfence(image, other));
        assertThat(partition().leader()).as("neither in the ISR nor eligible: no clean election").isEqualTo(-1);

        assertThat(elect(LeaderElections.UNCLEAN).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(partition().leader()).isEqualTo(other);
        assertThat(partition().isr()).as("the new leader is the whole ISR").containsExactly(other);
        assertThat(partition().leaderEpoch()).isGreaterThan(before.leaderEpoch());
    }

    @Test
    void withNoPartitionNamedOnlyTheElectionsThatWereNeededAreAnswered() {
        MetadataChange<ElectLeadersResponseData> all = LeaderElections.elect(image, new ElectLeadersRequestData()
                .setElectionType(LeaderElections.PREFERRED).setTopicPartitions(null), ElectionRules.DEFAULTS);
        assertThat(all.records()).isEmpty();
        assertThat(all.result().replicaElectionResults()).isEmpty();
        MetadataChange<ElectLeadersResponseData> unknown = LeaderElections.elect(image, new ElectLeadersRequestData()
                .setElectionType(LeaderElections.PREFERRED).setTopicPartitions(List.of(
                        new ElectLeadersRequestData.TopicPartitions().setTopic("missing").setPartitions(List.of(3)))),
                ElectionRules.DEFAULTS);
        assertThat(unknown.result().replicaElectionResults().get(0).partitionResult().get(0).errorCode())
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
    }
}
