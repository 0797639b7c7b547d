package dev.spool.broker.quorum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.fixtures.FixedPorts;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three voters of real Ratis servers on loopback, in this JVM: what they commit, and a leader's loss. */
class RaftMetadataQuorumTest {

    private static final long WAIT_MS = 30_000;

    /** One committed batch as a voter's commit listener heard it. */
    private record Commit(long lastOffset, List<VersionedRecord> records) {
    }

    private record Voter(RaftMetadataQuorum quorum, List<Commit> commits, AtomicReference<MetadataImage> image,
                         List<MetadataImage> resets) {
    }

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final Map<Integer, Voter> voters = new HashMap<>();
    private List<QuorumVoter> quorumVoters;
    private long snapshotInterval = 20_000;
    private boolean purgeUpToSnapshot;

    @AfterEach
    void stop() throws IOException {
        for (Voter voter : voters.values()) {
            voter.quorum().close();
        }
        scheduler.shutdownNow();
    }

    private void startAll(int count) throws IOException {
        List<QuorumVoter> all = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            all.add(new QuorumVoter(id, "127.0.0.1", freePort()));
        }
        quorumVoters = all;
        for (QuorumVoter voter : all) {
            start(voter.nodeId());
        }
    }

    private void start(int id) throws IOException {
        start(VoterSet.ofStatic(id, quorumVoters, 0));
    }

    private void start(VoterSet members) throws IOException {
        int id = members.self().nodeId();
        Path home = dir.resolve("node-" + id);
        PartitionLog log = PartitionLog.open(home.resolve("__cluster_metadata-0"), LogConfig.defaults(),
                System::currentTimeMillis, scheduler);
        RaftMetadataQuorum quorum = new RaftMetadataQuorum(members, "test-cluster", home,
                new MetadataLog(log), snapshotInterval, properties -> {
                    if (purgeUpToSnapshot) {
                        // Small segments, purged up to each snapshot: a voter that was away needs the snapshot.
                        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
                        RaftServerConfigKeys.Log.setPurgeGap(properties, 1);
                        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("1KB"));
                        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf("1KB"));
                    }
                });
        List<Commit> commits = new CopyOnWriteArrayList<>();
        List<MetadataImage> resets = new CopyOnWriteArrayList<>();
        // The image a publisher would keep: what snapshots write.
        AtomicReference<MetadataImage> image = new AtomicReference<>(quorum.latestSnapshot());
        quorum.setImageSource(image::get);
        quorum.setCommitListener(new MetadataQuorum.CommitListener() {
            @Override
            public void onCommit(List<VersionedRecord> records, long lastOffset) {
                commits.add(new Commit(lastOffset, records));
                image.set(image.get().apply(records, lastOffset));
            }

            @Override
            public void onReset(MetadataImage installed) {
                resets.add(installed);
                image.set(installed);
            }
        });
        quorum.start();
        voters.put(id, new Voter(quorum, commits, image, resets));
    }

    /** A voter's port, bound again when it restarts: below the ephemeral range (see {@link FixedPorts}). */
    private static int freePort() throws IOException {
        return FixedPorts.one();
    }

    private int awaitLeader() throws InterruptedException {
        awaitTrue(() -> voters.values().stream().anyMatch(voter -> voter.quorum().isActiveController()), "a leader");
        return voters.entrySet().stream().filter(entry -> entry.getValue().quorum().isActiveController())
                .findFirst().orElseThrow().getKey();
    }

    /** Every running voter's Raft state, for a timeout's message. */
    private String quorumStates() {
        return voters.values().stream().map(voter -> voter.quorum().toString()).collect(Collectors.joining("; "));
    }

    private static List<VersionedRecord> topics(String... names) {
        List<VersionedRecord> records = new ArrayList<>();
        for (String name : names) {
            records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD,
                    new TopicRecordData().setName(name).setTopicId(Uuid.randomUuid())));
        }
        return records;
    }

    private long propose(int id, String... names) throws Exception {
        return voters.get(id).quorum().propose(topics(names), 1_000L).get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @Test
    void votersCommitTheSameBatchesAtTheSameOffsetsAndOnlyTheLeaderTakesProposals() throws Exception {
        startAll(3);
        int leader = awaitLeader();

        assertThat(propose(leader, "a")).isZero();
        assertThat(propose(leader, "b", "c")).isEqualTo(2);
        assertThat(propose(leader, "d")).isEqualTo(3);

        awaitTrue(() -> voters.values().stream().allMatch(voter -> voter.commits().size() == 3), "three commits each");
        List<Commit> leaders = voters.get(leader).commits();
        assertThat(leaders).extracting(Commit::lastOffset).containsExactly(0L, 2L, 3L);
        for (Voter voter : voters.values()) {
            assertThat(voter.commits()).as("the same records at the same offsets on every voter").isEqualTo(leaders);
        }
        int follower = voters.keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        assertThatThrownBy(() -> voters.get(follower).quorum().propose(topics("refused"), 1_000L).get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(NotControllerException.class);
        assertThat(voters.get(follower).quorum().activeControllerId()).isEqualTo(leader);
    }

    @Test
    void aStaticQuorumRefusesVoterChangesAsKafkaDoesAtKraftVersionZero() throws Exception {
        startAll(3);
        int leader = awaitLeader();
        RaftMetadataQuorum quorum = voters.get(leader).quorum();
        assertThat(quorum.isDynamic()).isFalse();
        assertThat(quorum.currentVoters()).isEqualTo(quorumVoters);
        assertThatThrownBy(() -> quorum.addVoter(new QuorumVoter(4, "127.0.0.1", freePort(), Uuid.randomUuid()))
                .get()).hasCauseInstanceOf(VoterChangeRefused.class)
                .hasMessageContaining("doesn't support adding voter because the kraft.version feature is 0");
        assertThatThrownBy(() -> quorum.removeVoter(1, Uuid.ZERO_UUID).get())
                .hasCauseInstanceOf(VoterChangeRefused.class).hasMessageContaining("removing voter");
    }

    @Test
    void aDynamicQuorumAddsAndRemovesVotersThroughRaft() throws Exception {
        QuorumVoter one = new QuorumVoter(1, "127.0.0.1", freePort(), Uuid.randomUuid());
        QuorumVoter two = new QuorumVoter(2, "127.0.0.1", freePort(), Uuid.randomUuid());
        QuorumVoter three = new QuorumVoter(3, "127.0.0.1", freePort(), Uuid.randomUuid());
        start(new VoterSet(one, List.of(one), true, 0)); // formatted --standalone
        assertThat(awaitLeader()).isEqualTo(1);
        propose(1, "before");
        start(new VoterSet(two, List.of(), true, 0)); // formatted --no-initial-controllers: waits to be added
        start(new VoterSet(three, List.of(), true, 0));
        RaftMetadataQuorum leader = voters.get(1).quorum();
        assertThat(voters.get(2).quorum().activeControllerId()).as("not added: no leader known").isEqualTo(-1);

        leader.addVoter(two).get(WAIT_MS, TimeUnit.MILLISECONDS);
        leader.addVoter(three).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertThat(leader.currentVoters()).containsExactly(one, two, three);
        assertThat(propose(1, "after")).isEqualTo(1);
        awaitTrue(() -> voters.values().stream().allMatch(voter -> voter.image().get().offset() == 1),
                "the added voters caught up, the topic before their joining included");
        assertThat(voters.get(2).quorum().currentVoters()).containsExactly(one, two, three);
        assertThat(voters.get(3).quorum().activeControllerId()).isEqualTo(1);
        assertThatThrownBy(() -> leader.addVoter(two).get()).hasCauseInstanceOf(VoterChangeRefused.class)
                .hasMessageContaining("already part of the set of voters");

        // Restarted, an added voter takes its voters from its Raft log, not from how it was formatted.
        voters.remove(3).quorum().close();
        start(new VoterSet(three, List.of(), true, 0));
        awaitTrue(() -> voters.get(3).quorum().currentVoters().size() == 3, "the restarted voter knows all three");
        assertThat(propose(1, "restarted")).isEqualTo(2);
        awaitTrue(() -> voters.get(3).image().get().offset() == 2, "the restarted voter applies what follows");

        assertThatThrownBy(() -> leader.removeVoter(3, Uuid.randomUuid()).get())
                .hasCauseInstanceOf(VoterChangeRefused.class).hasMessageContaining("Cannot remove voter 3");
        AtomicReference<Boolean> removedStopped = new AtomicReference<>(false);
        voters.get(3).quorum().onShutdown(() -> removedStopped.set(true));
        leader.removeVoter(3, three.directoryId()).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertThat(leader.currentVoters()).containsExactly(one, two);
        awaitTrue(removedStopped::get, "the removed voter told to stop");
        assertThat(propose(1, "two-left")).as("a majority of the two voters commits").isEqualTo(3);
        awaitTrue(() -> voters.get(2).image().get().offset() == 3, "the other voter applies it");
    }

    @Test
    void anotherLeaderIsElectedWhenTheLeaderStopsAndItCatchesUpWhenItComesBack() throws Exception {
        startAll(3);
        int first = awaitLeader();
        propose(first, "before");
        voters.remove(first).quorum().close();

        int second = awaitLeader();
        assertThat(second).isNotEqualTo(first);
        assertThat(propose(second, "after-1")).isEqualTo(1);
        assertThat(propose(second, "after-2", "after-3")).isEqualTo(3);

        start(first); // its snapshot (taken when it stopped) and the Raft log after it: what it missed, applied once
        Voter back = voters.get(first);
        awaitTrue(() -> back.image().get().offset() == 3, "the restarted voter caught up");
        List<Commit> all = voters.get(second).commits();
        assertThat(all).extracting(Commit::lastOffset).containsExactly(0L, 1L, 3L);
        assertThat(back.commits()).as("the batches after its snapshot, as the leader committed them")
                .isEqualTo(all.subList(all.size() - back.commits().size(), all.size()));
        assertThat(back.image().get().topics()).hasSize(4);
    }

    @Test
    void snapshotsAreKafkaCheckpointsAndARestartStartsFromTheNewest() throws Exception {
        snapshotInterval = 5;
        startAll(3);
        int leader = awaitLeader();
        for (int i = 0; i < 12; i++) {
            propose(leader, "topic-" + i);
        }
        awaitTrue(() -> voters.values().stream().allMatch(voter -> voter.image().get().offset() == 11), "all applied");
        int follower = voters.keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        Path checkpoints = snapshotDirOf(follower);
        awaitTrue(() -> newestCheckpoint(checkpoints) >= 5, "a snapshot on the follower");
        long snapshotOffset = newestCheckpoint(checkpoints);
        assertThat(checkpoints.resolve(String.format("%020d-%010d.checkpoint.raft", snapshotOffset,
                voters.get(follower).quorum().epoch()))).as("its Raft term and index beside it").exists();

        voters.remove(follower).quorum().close();
        start(follower);
        Voter restarted = voters.get(follower);
        assertThat(restarted.quorum().latestSnapshot().topics()).hasSize((int) newestCheckpoint(checkpoints));
        awaitTrue(() -> restarted.image().get().offset() == 11, "the restarted voter caught up");
        assertThat(restarted.commits()).as("only what the snapshot does not hold is applied again")
                .extracting(Commit::lastOffset).allMatch(offset -> offset >= newestCheckpoint(checkpoints));
        assertThat(restarted.image().get().topics()).hasSize(12);
    }

    @Test
    void aVoterThatMissedThePurgedLogInstallsTheLeadersSnapshot() throws Exception {
        snapshotInterval = 5;
        purgeUpToSnapshot = true;
        startAll(3);
        int leader = awaitLeader();
        propose(leader, "first");
        int lagging = voters.keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        awaitTrue(() -> voters.get(lagging).image().get().offset() == 0, "the first topic everywhere");
        voters.remove(lagging).quorum().close();
        for (int i = 0; i < 30; i++) {
            propose(leader, "while-down-" + i);
        }
        awaitTrue(() -> newestCheckpoint(snapshotDirOf(leader)) >= 20, "snapshots on the leader");

        start(lagging);
        Voter back = voters.get(lagging);
        awaitTrue(() -> back.image().get().offset() == 30, "the lagging voter caught up");
        assertThat(back.resets()).as("it installed a snapshot rather than the purged entries").isNotEmpty();
        assertThat(back.image().get().topics()).hasSize(31);
        assertThat(newestCheckpoint(snapshotDirOf(lagging))).isPositive();
    }

    @Test
    void aVoterWhoseRaftLogLostItsTailRecoversWhatIsValidAndCatchesUp() throws Exception {
        // A power cut in the middle of writing the last entry: the segment ends inside it.
        Voter back = restartAFollowerWhoseRaftLogIsCut(size -> size - 7);
        assertThat(back.commits()).extracting(Commit::lastOffset).as("each offset applied once, in order")
                .isSorted().doesNotHaveDuplicates();
    }

    /**
     * The state the torn tail above reaches when the snapshot Ratis takes at a clean stop covers the entry torn
     * off: Ratis alone then answers the leader 'already have it' and 'missing the entry before' in turn for ever.
     */
    @Test
    void aVoterWhoseSnapshotCoversEntriesItsRaftLogLostStartsFromTheSnapshotAndCatchesUp() throws Exception {
        restartAFollowerWhoseRaftLogIsCut(size -> size / 2);
    }

    /**
     * Ten topics, then a follower stopped (Ratis snapshots it), its open Raft segment cut to {@code cut} of its
     * size, an eleventh topic, and the follower started again: it must hold the eleven, each applied once.
     */
    private Voter restartAFollowerWhoseRaftLogIsCut(LongUnaryOperator cut) throws Exception {
        startAll(3);
        int leader = awaitLeader();
        for (int i = 0; i < 10; i++) {
            propose(leader, "before-" + i);
        }
        int damaged = voters.keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        awaitTrue(() -> voters.get(damaged).image().get().offset() == 9, "ten topics on the follower");
        voters.remove(damaged).quorum().close();
        assertThat(newestCheckpoint(snapshotDirOf(damaged))).as("the snapshot taken at the stop").isEqualTo(10);
        Path segment = openSegmentOf(damaged);
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(cut.applyAsLong(Files.size(segment)));
        }
        propose(leader, "while-down");

        start(damaged);
        Voter back = voters.get(damaged);
        // At least: an offset past 10 (an entry applied twice) fails the assertions below, which say so.
        awaitTrue(() -> back.image().get().offset() >= 10, () -> "the damaged voter to catch up; its image is at "
                + back.image().get().offset() + "; " + quorumStates());
        assertThat(back.image().get().offset()).as("the last offset, every entry applied once").isEqualTo(10);
        assertThat(back.image().get().topics()).hasSize(11);
        return back;
    }

    private Path openSegmentOf(int id) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("node-" + id).resolve("ratis"))) {
            return files.filter(file -> file.getFileName().toString().startsWith("log_inprogress_"))
                    .findFirst().orElseThrow();
        }
    }

    private Path snapshotDirOf(int id) {
        return dir.resolve("node-" + id).resolve("ratis").resolve(
                UUID.nameUUIDFromBytes("test-cluster".getBytes(StandardCharsets.UTF_8))
                        .toString()).resolve("sm");
    }

    /** The next offset of the newest complete checkpoint in {@code dir}, or -1. */
    private static long newestCheckpoint(Path dir) {
        try {
            Path latest = CheckpointStorage.latest(dir);
            return latest == null ? -1 : MetadataSnapshot.offsetOf(latest);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        awaitTrue(condition, () -> what);
    }

    private static void awaitTrue(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what.get());
            }
            Thread.sleep(20);
        }
    }
}
