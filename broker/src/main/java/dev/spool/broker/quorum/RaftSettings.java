package dev.spool.broker.quorum;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
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

    static RaftProperties of(QuorumVoter self, Path storageDir) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(properties, self.host());
        NettyConfigKeys.Server.setPort(properties, self.port());
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
        // The image's snapshots are the publisher's for now; Raft snapshots come with the next step.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, false);
        return properties;
    }
}
