package dev.spool.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GroupCoordinatorTest {

    @Test
    void aGroupBelongsToThePartitionKafkaClientsExpect() {
        // Kafka: Utils.abs(groupId.hashCode()) % 50, with abs masking the sign bit.
        assertThat(GroupCoordinator.partitionFor("g1", 50)).isEqualTo(Math.abs("g1".hashCode()) % 50);
        assertThat(GroupCoordinator.partitionFor("console-consumer-12345", 50))
                .isEqualTo(("console-consumer-12345".hashCode() & 0x7fffffff) % 50);
    }

    @Test
    void aGroupIdHashingToIntegerMinValueMapsToAValidPartition() {
        // "polygenelubricants".hashCode() == Integer.MIN_VALUE: Math.abs would stay negative.
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(GroupCoordinator.partitionFor("polygenelubricants", 50)).isZero();
    }
}
