package dev.spool.broker.quorum;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * The Ratis settings of a metadata voter, each set explicitly rather than left to Ratis' defaults, which
 * suit neither a small metadata log nor a slow disk. Stateless.
 */
final class RaftSettings {

    /**
     * Election timeouts of 1-2 s, KRaft's: Ratis' 150-300 ms default elects spuriously when an fsync is
     * slow (RATIS-980).
     */
    static final TimeDuration ELECTION_TIMEOUT_MIN = TimeDuration.valueOf(1, TimeUnit.SECONDS);
    static final TimeDuration ELECTION_TIMEOUT_MAX = TimeDuration.valueOf(2, TimeUnit.SECONDS);

    private RaftSettings() {
    }

    /** The settings of voter {@code self}, snapshotting every {@code snapshotIntervalEntries} applied entries. */
    static RaftProperties of(QuorumVoter self, Path storageDir, long snapshotIntervalEntries) {
        RaftProperties properties = new RaftProperties();
        // gRPC, not Netty: Ratis 3.2.0's Netty log appender answers a follower's higher term on its own thread,
        // under the server's lock, while a leader stepping down for lost heartbeats waits with that lock for the
        // appender threads to end; after a pause of the leader (SIGSTOP, a long GC) both happen at once and the
        // voter deadlocks for good (a fault test found it). gRPC's appender takes replies on gRPC's threads.
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(properties, self.host());
        GrpcConfigKeys.Server.setPort(properties, self.port());
        // Never Ratis' default of /tmp/raft-server.
        RaftServerConfigKeys.setStorageDir(properties, List.of(storageDir.toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, ELECTION_TIMEOUT_MIN);
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, ELECTION_TIMEOUT_MAX);
        // Metadata batches are small: 8 MiB segments, two cached (Ratis' defaults cache 200 MB and write
        // through an 8 MiB direct buffer per log), 1 MiB preallocated.
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("8MB"));
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(properties, 2);
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf("1MB"));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf("2MB"));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf("1MB"));
        // A follower appends each request's entries as it comes, not chained behind the previous request's append:
        // in Ratis 3.2.0's chain, two requests arriving together after a healed partition appended at once, the
        // log refused the second, and every later append failed with it, so the voter never caught up again
        // (NetworkBedIT's healed partition). Unchained, a refused append fails that request alone; the leader
        // sends it again.
        RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(properties, false);
        // Heartbeats on the entries' stream, not a stream of their own: a follower that lost entries it had
        // acknowledged (a restart after a disk lost them) asks for them again, and a heartbeat's answer arriving
        // between sent the leader back to the index after what the follower once had, for ever (Ratis 3.3.0,
        // RaftMetadataQuorumTest's voters with a cut log). Metadata entries are small: a heartbeat is not held
        // up behind them.
        GrpcConfigKeys.Server.setHeartbeatChannel(properties, false);
        // A Kafka checkpoint every so many entries (metadata.log.max.records.between.snapshots, counted in Raft
        // entries, each a batch of records); Ratis then purges the log every peer has committed before it, and
        // sends the checkpoint to a follower that needs what was purged.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, snapshotIntervalEntries);
        RaftServerConfigKeys.Snapshot.setCreationGap(properties, Math.min(1024, snapshotIntervalEntries));
        // A torn tail after a power loss (an entry only partly written) is cut off, as the storage engine cuts
        // its own: what was acknowledged is on a majority, and this voter fetches it again from the leader.
        RaftServerConfigKeys.Log.setCorruptionPolicy(properties,
                RaftServerConfigKeys.Log.CorruptionPolicy.WARN_AND_RETURN);
        return properties;
    }
}
