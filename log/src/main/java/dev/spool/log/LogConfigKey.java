package dev.spool.log;

import dev.spool.log.record.CompressionCodecs;

/**
 * Immutable: every topic-level log setting, declared once with Kafka's name, Kafka's default, its
 * type, allowed values and a one-line description. {@link LogConfig} parses values from these. Kafka's
 * settings for features Spool does not have yet (tiered storage, replication throttles) are accepted,
 * validated and described as Kafka does, and do nothing.
 */
public enum LogConfigKey {
    SEGMENT_BYTES("segment.bytes", "1073741824", Type.INT, 14, "Size of a segment file before a new one is rolled."),
    SEGMENT_MS("segment.ms", "604800000", Type.LONG, 1, "Age (by record timestamps) after which a segment is rolled."),
    SEGMENT_JITTER_MS("segment.jitter.ms", "0", Type.LONG, 0, "Random jitter subtracted from segment.ms."),
    SEGMENT_INDEX_BYTES("segment.index.bytes", "10485760", Type.INT, 12, "Preallocated size of each index file."),
    INDEX_INTERVAL_BYTES("index.interval.bytes", "4096", Type.INT, 0, "Log bytes between two index entries."),
    RETENTION_MS("retention.ms", "604800000", Type.LONG, -1, "Age after which a segment is deleted; -1 keeps forever."),
    RETENTION_BYTES("retention.bytes", "-1", Type.LONG, -1, "Size above which old segments are deleted; -1 no limit."),
    FLUSH_MESSAGES("flush.messages", Long.toString(Long.MAX_VALUE), Type.LONG, 1, "Records between forced fsyncs."),
    FLUSH_MS("flush.ms", Long.toString(Long.MAX_VALUE), Type.LONG, 0, "Milliseconds between forced fsyncs."),
    FILE_DELETE_DELAY_MS("file.delete.delay.ms", "60000", Type.LONG, 0, "Delay between renaming to .deleted and removing a segment."),
    MAX_MESSAGE_BYTES("max.message.bytes", "1048588", Type.INT, 0, "Largest record batch accepted."),
    MESSAGE_TIMESTAMP_TYPE("message.timestamp.type", "CreateTime", Type.STRING, 0, "CreateTime or LogAppendTime."),
    MESSAGE_TIMESTAMP_BEFORE_MAX_MS("message.timestamp.before.max.ms", Long.toString(Long.MAX_VALUE), Type.LONG, 0,
            "How far in the past a CreateTime timestamp may lie."),
    MESSAGE_TIMESTAMP_AFTER_MAX_MS("message.timestamp.after.max.ms", "3600000", Type.LONG, 0,
            "How far in the future a CreateTime timestamp may lie."),
    CLEANUP_POLICY("cleanup.policy", "delete", Type.LIST, 0, "delete, compact, or both separated by a comma."),
    DELETE_RETENTION_MS("delete.retention.ms", "86400000", Type.LONG, 0, "How long tombstones survive compaction."),
    MIN_COMPACTION_LAG_MS("min.compaction.lag.ms", "0", Type.LONG, 0, "Minimum age of a record before compaction."),
    MAX_COMPACTION_LAG_MS("max.compaction.lag.ms", Long.toString(Long.MAX_VALUE), Type.LONG, 1, "Maximum age before compaction."),
    MIN_CLEANABLE_DIRTY_RATIO("min.cleanable.dirty.ratio", "0.5", Type.DOUBLE, 0, "Dirty ratio that triggers compaction."),
    COMPRESSION_TYPE("compression.type", "producer", Type.STRING, 0,
            "Codec of the stored batches: producer (as produced), or the broker recompresses batches in another "
                    + "codec to uncompressed, zstd, lz4, snappy or gzip.") {
        @Override
        public String problemWith(String value) {
            return LogConfig.COMPRESSION_TYPES.contains(value) ? null : "Invalid value " + value
                    + " for configuration compression.type: String must be one of: "
                    + String.join(", ", LogConfig.COMPRESSION_TYPES);
        }
    },
    MIN_INSYNC_REPLICAS("min.insync.replicas", "1", Type.INT, 1, "Replicas that must acknowledge acks=all."),
    PREALLOCATE("preallocate", "false", Type.BOOLEAN, 0, "Preallocate segment files (ignored: never preallocated)."),
    UNCLEAN_LEADER_ELECTION_ENABLE("unclean.leader.election.enable", "false", Type.BOOLEAN, 0,
            "Allow an out-of-sync replica to become leader."),
    COMPRESSION_GZIP_LEVEL("compression.gzip.level", String.valueOf(CompressionCodecs.GZIP_DEFAULT_LEVEL), Type.INT,
            -1, 9,
            "gzip level when the broker compresses (compression.type gzip).") {
        @Override
        public boolean allows(long value) {
            return value == -1 || (value >= 1 && value <= 9); // -1 is zlib's default; 0 (store) is not a level here
        }

        @Override
        public String validValues() {
            return "-1, or 1 to 9";
        }
    },
    COMPRESSION_LZ4_LEVEL("compression.lz4.level", String.valueOf(CompressionCodecs.LZ4_DEFAULT_LEVEL), Type.INT, 1, 17,
            "lz4 level when the broker compresses (compression.type lz4): 9 uses the fast compressor, as "
                    + "Kafka; the others lz4's high-compression one, many times slower."),
    COMPRESSION_ZSTD_LEVEL("compression.zstd.level", String.valueOf(CompressionCodecs.ZSTD_DEFAULT_LEVEL), Type.INT,
            -131072, 22,
            "zstd level when the broker compresses (compression.type zstd)."),
    LOCAL_RETENTION_MS("local.retention.ms", "-2", Type.LONG, -2,
            "Tiered storage's local retention; -2 is retention.ms (kept: Spool has no tiered storage)."),
    LOCAL_RETENTION_BYTES("local.retention.bytes", "-2", Type.LONG, -2,
            "Tiered storage's local retention; -2 is retention.bytes (kept: Spool has no tiered storage)."),
    REMOTE_STORAGE_ENABLE("remote.storage.enable", "false", Type.BOOLEAN, 0,
            "Tiered storage for the topic: only false, as this broker has no tiered storage.") {
        @Override
        public String problemWith(String value) {
            return value.equals("true") ? "remote.storage.enable = true: this broker has no tiered storage, so a "
                    + "topic cannot keep its log in remote storage" : null;
        }
    },
    REMOTE_LOG_COPY_DISABLE("remote.log.copy.disable", "false", Type.BOOLEAN, 0,
            "Stop copying segments to tiered storage (kept: Spool has no tiered storage)."),
    REMOTE_LOG_DELETE_ON_DISABLE("remote.log.delete.on.disable", "false", Type.BOOLEAN, 0,
            "Delete tiered segments when tiered storage is turned off (kept: Spool has no tiered storage)."),
    LEADER_REPLICATION_THROTTLED_REPLICAS("leader.replication.throttled.replicas", "", Type.LIST, 0,
            "Replicas throttled on the leader side (to out-of-sync followers, at the leader's "
                    + "leader.replication.throttled.rate): partition:broker pairs or *.") {
        @Override
        public String problemWith(String value) {
            return ThrottledReplicas.problemWith(configName, value);
        }
    },
    FOLLOWER_REPLICATION_THROTTLED_REPLICAS("follower.replication.throttled.replicas", "", Type.LIST, 0,
            "Replicas throttled on the follower side (an out-of-sync follower fetching them, at its "
                    + "follower.replication.throttled.rate): partition:broker pairs or *.") {
        @Override
        public String problemWith(String value) {
            return ThrottledReplicas.problemWith(configName, value);
        }
    };

    /** The value types a key may have. */
    public enum Type { INT, LONG, DOUBLE, BOOLEAN, STRING, LIST }

    public final String configName;
    public final String defaultValue;
    public final Type type;
    public final long minimum;
    public final long maximum;
    public final String doc;

    LogConfigKey(String configName, String defaultValue, Type type, long minimum, String doc) {
        this(configName, defaultValue, type, minimum, Long.MAX_VALUE, doc);
    }

    LogConfigKey(String configName, String defaultValue, Type type, long minimum, long maximum, String doc) {
        this.configName = configName;
        this.defaultValue = defaultValue;
        this.type = type;
        this.minimum = minimum;
        this.maximum = maximum;
        this.doc = doc;
    }

    /** Whether a number is one of this INT or LONG key's valid values. */
    public boolean allows(long value) {
        return value >= minimum && value <= maximum;
    }

    /** What is wrong with a value of the right type that this key still refuses, or null. */
    public String problemWith(String value) {
        return null;
    }

    /** This INT or LONG key's valid values in words, for messages and documentation. */
    public String validValues() {
        return maximum == Long.MAX_VALUE ? "at least " + minimum : minimum + " to " + maximum;
    }

    /** The key with this Kafka name, or null. */
    public static LogConfigKey forName(String configName) {
        for (LogConfigKey key : values()) {
            if (key.configName.equals(configName)) {
                return key;
            }
        }
        return null;
    }
}
