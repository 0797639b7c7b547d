package dev.spool.broker.quorum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.log.LogConfig;
import dev.spool.log.PartitionLog;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three voters of real Ratis servers on loopback, in this JVM: what they commit, and a leader's loss. */
class RaftMetadataQuorumTest {

    private static final long WAIT_MS = 30_000;

    /** One committed batch as a voter's commit listener heard it. */
    private record Commit(long lastOffset, List<VersionedRecord> records) {
    }

    private record Voter(RaftMetadataQuorum quorum, List<Commit> commits) {
    }

    @TempDir
    Path dir;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final Map<Integer, Voter> voters = new HashMap<>();
    private List<QuorumVoter> quorumVoters;

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
        Path home = dir.resolve("node-" + id);
        PartitionLog log = PartitionLog.open(home.resolve("__cluster_metadata-0"), LogConfig.defaults(),
                System::currentTimeMillis, scheduler);
        RaftMetadataQuorum quorum = new RaftMetadataQuorum(id, quorumVoters, "test-cluster", home,
                new MetadataLog(log));
        List<Commit> commits = new CopyOnWriteArrayList<>();
        quorum.setCommitListener((records, lastOffset) -> commits.add(new Commit(lastOffset, records)));
        quorum.start();
        voters.put(id, new Voter(quorum, commits));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private int awaitLeader() throws InterruptedException {
        awaitTrue(() -> voters.values().stream().anyMatch(voter -> voter.quorum().isActiveController()), "a leader");
        return voters.entrySet().stream().filter(entry -> entry.getValue().quorum().isActiveController())
                .findFirst().orElseThrow().getKey();
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
    void anotherLeaderIsElectedWhenTheLeaderStopsAndItCatchesUpWhenItComesBack() throws Exception {
        startAll(3);
        int first = awaitLeader();
        propose(first, "before");
        voters.remove(first).quorum().close();

        int second = awaitLeader();
        assertThat(second).isNotEqualTo(first);
        assertThat(propose(second, "after-1")).isEqualTo(1);
        assertThat(propose(second, "after-2", "after-3")).isEqualTo(3);

        start(first); // the same Raft log: it catches up with what it missed, applied once
        awaitTrue(() -> voters.get(first).commits().size() == 3, "the restarted voter caught up");
        assertThat(voters.get(first).commits()).isEqualTo(voters.get(second).commits());
        assertThat(voters.get(first).commits()).extracting(Commit::lastOffset).containsExactly(0L, 1L, 3L);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
