package dev.spool.broker.quorum;

import dev.spool.broker.config.PrincipalMappingRules;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataLog;
import dev.spool.broker.metadata.MetadataQuorum;
import dev.spool.broker.metadata.MetadataSnapshot;
import dev.spool.broker.metadata.NotControllerException;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.metadata.VoterProgress;
import dev.spool.log.FileTrees;
import dev.spool.protocol.Errors;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.ReconfigurationInProgressException;
import org.apache.ratis.protocol.exceptions.ReconfigurationTimeoutException;
import org.apache.ratis.protocol.exceptions.SetConfigurationException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.server.storage.RaftStorageDirectory;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The metadata quorum of several controllers, on Apache Ratis: a proposal is one Raft log entry (a Kafka
 * record batch, see {@link MetadataStateMachine}), committed once a majority of the voters has it, then
 * applied by every voter in the same order to its {@code __cluster_metadata} log. Only the leader, once it
 * has applied every entry of earlier terms, takes proposals: elsewhere {@link #propose} fails with
 * {@link NotControllerException}. Raft snapshots are Kafka checkpoints ({@link CheckpointStorage}); the Kafka-format
 * log is derived data, rebuilt at every start from the newest snapshot and the Raft log after it. The voters are
 * static, or (a dynamic quorum, KIP-853) Ratis' own configuration, which {@link #addVoter} and {@link #removeVoter}
 * change through Ratis' reconfiguration (see {@link VoterSet}). Thread-safe.
 */
public final class RaftMetadataQuorum implements MetadataQuorum, QuorumMembership {

    private final int nodeId;
    private final VoterSet members;
    private final RaftGroup group;
    private final Path storageDir;
    private final RaftProperties properties;
    /** Ratis' objects for the server: the Raft port's TLS, when the controller listener speaks it. */
    private final Parameters parameters = new Parameters();
    private final MetadataLog materialized;
    private final MetadataStateMachine stateMachine;
    private final Path snapshotDir;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private volatile RaftServer server;

    /**
     * A voter of the quorum of {@code voters} (one of which is {@code nodeId}) at their Raft addresses, a static
     * quorum, keeping its Raft log under {@code raftDir} and its Kafka-format log in {@code materialized};
     * {@code clusterId} names the Raft group, so two clusters never mix.
     */
    public RaftMetadataQuorum(int nodeId, List<QuorumVoter> voters, String clusterId, Path raftDir,
                              MetadataLog materialized, long snapshotIntervalEntries) throws IOException {
        this(VoterSet.ofStatic(nodeId, voters, 0), clusterId, raftDir, materialized, snapshotIntervalEntries,
                properties -> { });
    }

    /** The voter {@code members} describes, static or dynamic. */
    public RaftMetadataQuorum(VoterSet members, String clusterId, Path raftDir, MetadataLog materialized,
                              long snapshotIntervalEntries) throws IOException {
        this(members, clusterId, raftDir, materialized, snapshotIntervalEntries, properties -> { });
    }

    /**
     * As the public constructor, with Ratis' settings {@code tuned} after Spool's: tests of a snapshot install
     * purge the Raft log a voter still lacks, which a cluster keeps until every voter has it.
     */
    RaftMetadataQuorum(VoterSet members, String clusterId, Path raftDir, MetadataLog materialized,
                       long snapshotIntervalEntries, Consumer<RaftProperties> tuned) throws IOException {
        this.nodeId = members.self().nodeId();
        this.members = members;
        List<RaftPeer> peers = new ArrayList<>();
        if (!members.dynamic() || members.includesSelf()) {
            // A dynamic quorum's new voter starts with no peers (Ratis refuses a group without itself): the leader
            // brings it the configuration when AddRaftVoter adds it.
            for (QuorumVoter voter : members.voters()) {
                peers.add(peerOf(voter));
            }
        }
        this.group = RaftGroup.valueOf(RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(clusterId.getBytes(StandardCharsets.UTF_8))), peers);
        this.storageDir = raftDir.resolve("ratis");
        this.properties = RaftSettings.of(raftAddressOf(members.self()), storageDir, snapshotIntervalEntries);
        tuned.accept(properties);
        this.materialized = materialized;
        this.snapshotDir = CheckpointStorage.dirIn(storageDir.resolve(group.getGroupId().getUuid().toString()));
        this.stateMachine = new MetadataStateMachine(materialized, new CheckpointStorage());
        // Derived from the newest snapshot and the Raft log after it, which Ratis applies again from there: the
        // Kafka-format log starts over at the snapshot, so nothing is applied twice.
        Path latest = CheckpointStorage.latest(snapshotDir);
        materialized.startAt(latest == null ? 0 : MetadataSnapshot.offsetOf(latest));
        FileTrees.deleteRecursively(raftDir.resolve("image-snapshots")); // where an earlier version kept snapshots
    }

    /**
     * A voter's Raft identity: {@code n<id>} in a static quorum; {@code n<id>-<directory id>} in a dynamic one, so
     * that a voter whose disk was replaced is another voter (KIP-853's replica key).
     */
    static RaftPeerId peerId(QuorumVoter voter) {
        return RaftPeerId.valueOf(voter.directoryId().equals(Uuid.ZERO_UUID) ? "n" + voter.nodeId()
                : "n" + voter.nodeId() + "-" + voter.directoryId());
    }

    private RaftPeer peerOf(QuorumVoter voter) {
        QuorumVoter raft = raftAddressOf(voter);
        return RaftPeer.newBuilder().setId(peerId(voter)).setAddress(raft.address()).build();
    }

    private QuorumVoter raftAddressOf(QuorumVoter voter) {
        return voter.atPort(voter.port() + members.raftPortOffset());
    }

    /** The voter a Raft peer is, at its controller listener. */
    private QuorumVoter voterOf(RaftPeer peer) {
        String id = peer.getId().toString();
        int dash = id.indexOf('-');
        int voterId = Integer.parseInt(id.substring(1, dash < 0 ? id.length() : dash));
        Uuid directoryId = dash < 0 ? Uuid.ZERO_UUID : Uuid.fromString(id.substring(dash + 1));
        String address = peer.getAddress();
        int colon = address.lastIndexOf(':');
        return new QuorumVoter(voterId, address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1)) - members.raftPortOffset(), directoryId);
    }

    @Override
    public void setCommitListener(CommitListener listener) {
        stateMachine.setCommitListener(listener);
    }

    /** {@code handler} runs when Ratis shuts this voter's Raft server down on its own (not when closed). */
    public void onShutdown(Runnable handler) {
        stateMachine.setShutdownHandler(handler);
    }

    @Override
    public void setImageSource(Supplier<MetadataImage> image) {
        stateMachine.setImageSource(image);
    }

    /** The newest complete Raft snapshot's image: Ratis applies its log from the entry after it. */
    @Override
    public MetadataImage latestSnapshot() throws IOException {
        Path latest = CheckpointStorage.latest(snapshotDir);
        return latest == null ? MetadataImage.EMPTY : MetadataSnapshot.load(latest);
    }

    @Override
    public Path newestSnapshotFile() throws IOException {
        return CheckpointStorage.latest(snapshotDir);
    }

    @Override
    public boolean snapshotsItself() {
        return true;
    }

    /** Nothing is committed before the Raft server starts: its log is applied after {@link #start}. */
    @Override
    public void replay(long afterOffset, MetadataLog.ChangeConsumer consumer) {
    }

    /**
     * Before {@link #start}: the Raft port speaks mutual TLS, serving and connecting with {@code keys}, with peers
     * whose certificate {@code trust} vouches for and, when {@code allowedPeers} is not null, whose certificate name
     * ({@code rules}) is one of those principals ({@link RaftPeerTrust}).
     */
    public synchronized void useMutualTls(KeyManager keys, X509ExtendedTrustManager trust, PrincipalMappingRules rules,
                                          Set<String> allowedPeers) {
        GrpcTlsConfig tls = new GrpcTlsConfig(keys, new RaftPeerTrust(trust, rules, allowedPeers), true);
        GrpcConfigKeys.TLS.setConf(parameters, tls);
        GrpcConfigKeys.Server.setTlsConf(parameters, tls);
    }

    /** Starts the Raft server: it joins the quorum and applies the committed entries of its log. */
    @Override
    public synchronized void start() throws IOException {
        if (server != null) {
            return;
        }
        // A voter's first start formats its Raft storage; every later one recovers it (Ratis refuses to format
        // over an existing group directory, and recovering a missing one fails).
        Path groupDir = storageDir.resolve(group.getGroupId().getUuid().toString());
        boolean exists = Files.isDirectory(groupDir);
        // Recovered, a dynamic quorum's voter takes its voters from its Raft log, never from how it was formatted
        // (Ratis refuses a group that leaves it out, and ignores the peers of a recovered one).
        RaftGroup startGroup = exists && members.dynamic() ? RaftGroup.valueOf(group.getGroupId()) : group;
        Path latest = CheckpointStorage.latest(snapshotDir);
        if (exists && latest != null) {
            RaftLogBehindSnapshot.dropIfBehind(groupDir.resolve(RaftStorageDirectory.CURRENT_DIR_NAME),
                    CheckpointStorage.termIndexIn(CheckpointStorage.raftFileOf(latest)).getIndex(), properties);
        }
        server = RaftServer.newBuilder().setServerId(peerId(members.self())).setGroup(startGroup).setProperties(properties)
                .setParameters(parameters).setStateMachine(stateMachine)
                .setOption(exists ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT)
                .build();
        server.start();
    }

    /** Whether this voter is the quorum's leader, ready to take proposals. */
    @Override
    public boolean isActiveController() {
        return stateMachine.isLeaderReady();
    }

    /** The node id of the quorum's leader as this voter knows it, or -1. */
    @Override
    public int activeControllerId() {
        DivisionInfo info = info();
        RaftPeerId leader = info == null ? null : info.getLeaderId();
        return leader == null ? -1 : nodeIdOf(leader.toString());
    }

    /** From the leader's Raft state: each follower's commit index, as Kafka offsets, and its last contact. */
    @Override
    public List<VoterProgress> voterProgress(long nowMs) {
        RaftServer running = server;
        if (running == null || !isActiveController()) {
            return List.of();
        }
        try {
            RaftServer.Division division = running.getDivision(group.getGroupId());
            Map<Integer, Long> elapsed = new HashMap<>();
            for (RaftProtos.ServerRpcProto follower
                    : division.getInfo().getRoleInfoProto().getLeaderInfo().getFollowerInfoList()) {
                elapsed.put(nodeIdOf(follower.getId().getId().toStringUtf8()), follower.getLastRpcElapsedTimeMs());
            }
            List<VoterProgress> progress = new ArrayList<>();
            for (RaftProtos.CommitInfoProto peer : division.getCommitInfos()) {
                int peerId = nodeIdOf(peer.getServer().getId().toStringUtf8());
                if (peerId != nodeId) {
                    Long since = elapsed.get(peerId);
                    progress.add(new VoterProgress(peerId, stateMachine.logEndOffsetAt(peer.getCommitIndex()),
                            since == null ? -1 : nowMs - since));
                }
            }
            return progress;
        } catch (IOException e) {
            return List.of();
        }
    }

    private static int nodeIdOf(String peerId) {
        int dash = peerId.indexOf('-');
        return Integer.parseInt(peerId.substring(1, dash < 0 ? peerId.length() : dash));
    }

    @Override
    public int epoch() {
        DivisionInfo info = info();
        return info == null ? 0 : (int) info.getCurrentTerm();
    }

    /** This voter's Raft state in one line: for logs, and for a test that timed out waiting on it. */
    @Override
    public String toString() {
        RaftServer running = server;
        if (running == null) {
            return "voter " + nodeId + " (not started)";
        }
        try {
            RaftServer.Division division = running.getDivision(group.getGroupId());
            DivisionInfo info = division.getInfo();
            RaftLog log = division.getRaftLog();
            return "voter " + nodeId + ": " + info.getCurrentRole() + " in term " + info.getCurrentTerm()
                    + ", leader " + info.getLeaderId() + ", log " + log.getStartIndex() + ".." + log.getNextIndex()
                    + " committed " + log.getLastCommittedIndex() + " applied " + info.getLastAppliedIndex()
                    + ", followers' match indexes " + Arrays.toString(info.getFollowerMatchIndices());
        } catch (IOException e) {
            return "voter " + nodeId + " (" + e.getMessage() + ")";
        }
    }

    private DivisionInfo info() {
        RaftServer running = server;
        if (running == null) {
            return null;
        }
        try {
            return running.getDivision(group.getGroupId()).getInfo();
        } catch (IOException e) {
            return null; // closed, or not yet joined the group: no leader known
        }
    }

    @Override
    public CompletableFuture<Long> propose(List<VersionedRecord> records, long nowMs) {
        RaftServer running = server;
        if (running == null || !stateMachine.isLeaderReady()) {
            return CompletableFuture.failedFuture(new NotControllerException(nodeId));
        }
        ByteBuffer batch = MetadataLog.encode(records, nowMs);
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(running.getId())
                .setGroupId(group.getGroupId())
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(ByteString.copyFrom(batch)))
                .setType(RaftClientRequest.writeRequestType())
                .build();
        try {
            return running.submitClientRequestAsync(request).handle((reply, failure) -> lastOffset(reply, failure));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The offset of the proposal's last record; a proposal that reached a voter no longer (or not yet) leading
     * fails with {@link NotControllerException}, which callers answer NOT_CONTROLLER.
     */
    private long lastOffset(RaftClientReply reply, Throwable failure) {
        Throwable cause = causeOf(reply, failure);
        if (isNotLeader(cause)) {
            throw new NotControllerException(nodeId);
        }
        if (cause != null) {
            throw new IllegalStateException("the metadata quorum did not commit the proposal", cause);
        }
        if (!reply.isSuccess()) {
            throw new IllegalStateException("the metadata quorum refused the proposal");
        }
        return Long.parseLong(reply.getMessage().getContent().toStringUtf8());
    }

    /** Why a Raft request failed (null: it did not), its future's wrapping removed. */
    private static Throwable causeOf(RaftClientReply reply, Throwable failure) {
        Throwable cause = failure != null ? failure : reply.isSuccess() ? null : reply.getException();
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static boolean isNotLeader(Throwable cause) {
        return cause instanceof NotLeaderException || cause instanceof LeaderNotReadyException
                || cause instanceof LeaderSteppingDownException;
    }

    @Override
    public boolean isDynamic() {
        return members.dynamic();
    }

    /**
     * A static quorum's voters as configured; a dynamic one's as Ratis' configuration holds them now (none before
     * this voter has been added, or while its server is not running).
     */
    @Override
    public List<QuorumVoter> currentVoters() {
        if (!members.dynamic()) {
            return members.voters();
        }
        RaftServer running = server;
        if (running == null) {
            return List.of();
        }
        try {
            List<QuorumVoter> voters = new ArrayList<>();
            for (RaftPeer peer : running.getDivision(group.getGroupId()).getRaftConf().getCurrentPeers()) {
                voters.add(voterOf(peer));
            }
            voters.sort(Comparator.comparingInt(QuorumVoter::nodeId));
            return voters;
        } catch (IOException e) {
            return List.of(); // closed, or not yet a member of the group
        }
    }

    /**
     * Adds the voter with Ratis' ADD reconfiguration: the leader first catches the new voter up (it must be running,
     * with its Raft server listening), then commits the new configuration.
     */
    @Override
    public CompletableFuture<Void> addVoter(QuorumVoter voter) {
        if (!members.dynamic()) {
            return refused(Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support adding voter because the kraft.version feature is 0");
        }
        List<QuorumVoter> current = currentVoters();
        if (current.stream().anyMatch(existing -> existing.nodeId() == voter.nodeId())) {
            return refused(Errors.DUPLICATE_VOTER, "The voter id for " + voter.nodeId()
                    + " is already part of the set of voters " + current);
        }
        return reconfigure(SetConfigurationRequest.Arguments.newBuilder().setServersInNewConf(List.of(peerOf(voter)))
                .setMode(SetConfigurationRequest.Mode.ADD).build());
    }

    /** Removes the voter with a compare-and-set reconfiguration: the voters now, without it. */
    @Override
    public CompletableFuture<Void> removeVoter(int voterId, Uuid directoryId) {
        if (!members.dynamic()) {
            return refused(Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support removing voter because the kraft.version feature is 0");
        }
        List<QuorumVoter> current = currentVoters();
        List<RaftPeer> currentPeers = new ArrayList<>();
        List<RaftPeer> remaining = new ArrayList<>();
        for (QuorumVoter voter : current) {
            currentPeers.add(peerOf(voter));
            if (voter.nodeId() != voterId || !voter.directoryId().equals(directoryId)) {
                remaining.add(peerOf(voter));
            }
        }
        if (remaining.size() == current.size()) {
            return refused(Errors.VOTER_NOT_FOUND, "Cannot remove voter " + voterId + " (directory id " + directoryId
                    + ") from the set of voters " + current);
        }
        if (remaining.isEmpty()) {
            return refused(Errors.INVALID_REQUEST, "Cannot remove voter " + voterId + ", the only voter of the quorum");
        }
        return reconfigure(SetConfigurationRequest.Arguments.newBuilder().setServersInNewConf(remaining)
                .setServersInCurrentConf(currentPeers).setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET).build());
    }

    private CompletableFuture<Void> reconfigure(SetConfigurationRequest.Arguments arguments) {
        RaftServer running = server;
        if (running == null || !stateMachine.isLeaderReady()) {
            return CompletableFuture.failedFuture(new NotControllerException(nodeId));
        }
        SetConfigurationRequest request = new SetConfigurationRequest(clientId, running.getId(), group.getGroupId(),
                callIds.incrementAndGet(), arguments);
        try {
            return running.setConfigurationAsync(request).handle((reply, failure) -> {
                Throwable cause = causeOf(reply, failure);
                if (cause == null) {
                    return null;
                }
                if (isNotLeader(cause)) {
                    throw new NotControllerException(nodeId);
                }
                if (cause instanceof ReconfigurationInProgressException) {
                    throw new VoterChangeRefused(Errors.REQUEST_TIMED_OUT, "Request timed out waiting for the leader "
                            + "to finish the previous voter change: " + cause.getMessage());
                }
                if (cause instanceof ReconfigurationTimeoutException) {
                    throw new VoterChangeRefused(Errors.REQUEST_TIMED_OUT, "The new voter did not catch up with the "
                            + "leader in time (is it running, its Raft port reachable?): " + cause.getMessage());
                }
                if (cause instanceof SetConfigurationException) {
                    throw new VoterChangeRefused(Errors.INVALID_REQUEST, cause.getMessage());
                }
                throw new IllegalStateException("the metadata quorum did not change its voters", cause);
            });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CompletableFuture<Void> refused(Errors error, String message) {
        return CompletableFuture.failedFuture(new VoterChangeRefused(error, message));
    }

    @Override
    public Path snapshotDir() {
        return snapshotDir;
    }

    /** Never asked: the quorum snapshots itself ({@link MetadataStateMachine#takeSnapshot}). */
    @Override
    public void deleteRecordsBefore(long offset) throws IOException {
        materialized.deleteRecordsBefore(offset);
    }

    @Override
    public synchronized void close() throws IOException {
        stateMachine.setShutdownHandler(null); // closed on purpose: nothing to stop
        if (server != null) {
            server.close();
        }
        materialized.close();
    }
}
