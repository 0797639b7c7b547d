package dev.spool.broker.group;

import dev.spool.protocol.group.GroupMetadataKeyData;
import dev.spool.protocol.group.GroupMetadataValueData;
import dev.spool.protocol.group.OffsetCommitKeyData;
import dev.spool.protocol.group.OffsetCommitValueData;
import dev.spool.protocol.types.Message;

/**
 * One record of {@code __consumer_offsets}: a key (its type is its version: 0 and 1 an offset
 * commit, 2 a group's metadata) and a value in some version, or no value (a tombstone: the offset or
 * the group is gone). {@link GroupRecordSerde} turns it into Kafka's bytes. Immutable once built.
 */
record CoordinatorRecord(short keyVersion, Message key, short valueVersion, Message value) {

    /** Key version of an offset commit (Kafka writes 1; 0 is the legacy layout, read the same). */
    static final short OFFSET_COMMIT_KEY_VERSION = 1;
    static final short LEGACY_OFFSET_COMMIT_KEY_VERSION = 0;
    static final short GROUP_METADATA_KEY_VERSION = 2;
    /** Value versions Kafka 4 writes: 3 for offsets (leader epoch), 1 when an expiry is set; 3 for groups. */
    static final short OFFSET_COMMIT_VALUE_VERSION = 3;
    static final short OFFSET_COMMIT_VALUE_VERSION_WITH_EXPIRY = 1;
    static final short GROUP_METADATA_VALUE_VERSION = 3;

    boolean isOffsetCommit() {
        return keyVersion == OFFSET_COMMIT_KEY_VERSION || keyVersion == LEGACY_OFFSET_COMMIT_KEY_VERSION;
    }

    boolean isTombstone() {
        return value == null;
    }

    static CoordinatorRecord offsetCommit(String groupId, String topic, int partition, CommittedOffset offset) {
        OffsetCommitKeyData key = new OffsetCommitKeyData().setGroup(groupId).setTopic(topic).setPartition(partition);
        boolean expires = offset.expireTimestampMs() != CommittedOffset.NO_EXPIRY;
        OffsetCommitValueData value = new OffsetCommitValueData()
                .setOffset(offset.offset())
                .setLeaderEpoch(offset.leaderEpoch())
                .setMetadata(offset.metadata())
                .setCommitTimestamp(offset.commitTimestampMs())
                .setExpireTimestamp(offset.expireTimestampMs());
        return new CoordinatorRecord(OFFSET_COMMIT_KEY_VERSION, key,
                expires ? OFFSET_COMMIT_VALUE_VERSION_WITH_EXPIRY : OFFSET_COMMIT_VALUE_VERSION, value);
    }

    static CoordinatorRecord offsetTombstone(String groupId, String topic, int partition) {
        return new CoordinatorRecord(OFFSET_COMMIT_KEY_VERSION,
                new OffsetCommitKeyData().setGroup(groupId).setTopic(topic).setPartition(partition), (short) 0, null);
    }

    /**
     * A record that changes nothing, written so that committing it proves this broker still leads the partition
     * ({@link OffsetCommits#proveLeadership}): the tombstone of an offset no group can have, since no topic is
     * named "". Replay removes nothing, in Spool and in Kafka; compaction keeps one per group.
     */
    static CoordinatorRecord readBarrier(String groupId) {
        return offsetTombstone(groupId, "", -1);
    }

    static CoordinatorRecord groupMetadata(String groupId, GroupMetadataValueData value) {
        return new CoordinatorRecord(GROUP_METADATA_KEY_VERSION, new GroupMetadataKeyData().setGroup(groupId),
                GROUP_METADATA_VALUE_VERSION, value);
    }

    static CoordinatorRecord groupTombstone(String groupId) {
        return new CoordinatorRecord(GROUP_METADATA_KEY_VERSION, new GroupMetadataKeyData().setGroup(groupId),
                (short) 0, null);
    }
}
