package dev.spool.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a follower truncates when its log diverged from the leader's (KIP-101's cases). */
class ReplicaFetcherTest {

    /** The follower: epoch 1 from 0, epoch 2 from 40, epoch 4 from 70 (written as a leader that lost it), end 90. */
    private static final Map<Integer, Long> FOLLOWER = Map.of(1, 0L, 2, 40L, 4, 70L);

    @Test
    void bothHaveTheEpochItEndsAtTheLowerOfTheTwoEnds() {
        assertThat(ReplicaFetcher.truncationOffset(2, 60, FOLLOWER, 90, 30))
                .as("epoch 2 ended at 60 on the leader, 70 here").isEqualTo(60);
        assertThat(ReplicaFetcher.truncationOffset(2, 75, FOLLOWER, 90, 30))
                .as("the leader's epoch 2 ran longer: this log's end of it").isEqualTo(70);
    }

    @Test
    void theFollowerLacksTheLeadersEpochItTruncatesToTheEndOfItsOlderOne() {
        assertThat(ReplicaFetcher.truncationOffset(3, 80, FOLLOWER, 90, 30))
                .as("no epoch 3 here: epoch 2 ends at 70; the next fetch checks epoch 2").isEqualTo(70);
    }

    @Test
    void theLeaderKnowsNoEpochOfTheFollowersItKeepsWhatWasCommitted() {
        assertThat(ReplicaFetcher.truncationOffset(-1, -1, FOLLOWER, 90, 30)).isEqualTo(30);
    }
}
