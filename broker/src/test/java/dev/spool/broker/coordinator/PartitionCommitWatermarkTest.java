package dev.spool.broker.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManagerFixture;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionChangeRecordData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionCommitWatermarkTest {

    @TempDir
    Path logDir;
    private PartitionManagerFixture fixture;

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void nothingIsCommittedOnceTheLeadershipHasMovedOnWhateverTheFollowersHighWatermarkSays() throws Exception {
        fixture = new PartitionManagerFixture(logDir);
        fixture.createTopic("__consumer_offsets", 1, List.of(1, 2));
        Partition partition = fixture.partitions().get("__consumer_offsets", 0);
        PartitionCommitWatermark watermark = new PartitionCommitWatermark(partition, partition.leaderEpoch());
        fixture.append("__consumer_offsets", 0, 10);
        assertThat(watermark.writtenUpTo()).isEqualTo(1);
        assertThat(watermark.committedUpTo()).isEqualTo(1);

        fixture.apply(VersionedRecord.of(MetadataRecordType.PARTITION_CHANGE_RECORD, new PartitionChangeRecordData()
                .setTopicId(fixture.image().topic("__consumer_offsets").id()).setPartitionId(0).setLeader(2)));
        partition.log().updateHighWatermark(partition.log().logEndOffset()); // the new leader's, as a follower learns it

        assertThat(watermark.committedUpTo()).isEqualTo(-1);
    }
}
