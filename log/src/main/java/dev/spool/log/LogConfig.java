package dev.spool.log;

import dev.spool.log.record.CompressionCodecs;
import dev.spool.log.record.CompressionType;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Immutable: the settings of one partition log, parsed from Kafka-named properties (topic overrides
 * over defaults); the keys, defaults and bounds are declared once in {@link LogConfigKey}.
 */
public final class LogConfig {
    private static final Logger LOG = LoggerFactory.getLogger(LogConfig.class);

    public final int segmentBytes;
    public final long segmentMs;
    public final long segmentJitterMs;
    public final int segmentIndexBytes;
    public final int indexIntervalBytes;
    public final long retentionMs;
    public final long retentionBytes;
    public final long flushMessages;
    public final long flushMs;
    public final long fileDeleteDelayMs;
    public final int maxMessageBytes;
    public final boolean logAppendTime;
    public final long messageTimestampBeforeMaxMs;
    public final long messageTimestampAfterMaxMs;
    public final boolean compact;
    public final boolean delete;
    public final long deleteRetentionMs;
    public final long minCompactionLagMs;
    public final long maxCompactionLagMs;
    public final double minCleanableDirtyRatio;
    /** compression.type: the codec the broker stores batches in, or null to keep the producer's. */
    public final CompressionType finalCompression;
    private final int gzipLevel;
    private final int lz4Level;
    private final int zstdLevel;
    public final int minInsyncReplicas;

    private final Map<LogConfigKey, String> values;

    private LogConfig(Map<LogConfigKey, String> values) {
        this.values = values;
        segmentBytes = (int) longValue(LogConfigKey.SEGMENT_BYTES);
        segmentMs = longValue(LogConfigKey.SEGMENT_MS);
        segmentJitterMs = longValue(LogConfigKey.SEGMENT_JITTER_MS);
        segmentIndexBytes = (int) longValue(LogConfigKey.SEGMENT_INDEX_BYTES);
        indexIntervalBytes = (int) longValue(LogConfigKey.INDEX_INTERVAL_BYTES);
        retentionMs = longValue(LogConfigKey.RETENTION_MS);
        retentionBytes = longValue(LogConfigKey.RETENTION_BYTES);
        flushMessages = longValue(LogConfigKey.FLUSH_MESSAGES);
        flushMs = longValue(LogConfigKey.FLUSH_MS);
        fileDeleteDelayMs = longValue(LogConfigKey.FILE_DELETE_DELAY_MS);
        maxMessageBytes = (int) longValue(LogConfigKey.MAX_MESSAGE_BYTES);
        messageTimestampBeforeMaxMs = longValue(LogConfigKey.MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
        messageTimestampAfterMaxMs = longValue(LogConfigKey.MESSAGE_TIMESTAMP_AFTER_MAX_MS);
        deleteRetentionMs = longValue(LogConfigKey.DELETE_RETENTION_MS);
        minCompactionLagMs = longValue(LogConfigKey.MIN_COMPACTION_LAG_MS);
        maxCompactionLagMs = longValue(LogConfigKey.MAX_COMPACTION_LAG_MS);
        minCleanableDirtyRatio = Double.parseDouble(values.get(LogConfigKey.MIN_CLEANABLE_DIRTY_RATIO));
        minInsyncReplicas = (int) longValue(LogConfigKey.MIN_INSYNC_REPLICAS);
        finalCompression = finalCompression(values.get(LogConfigKey.COMPRESSION_TYPE));
        gzipLevel = (int) longValue(LogConfigKey.COMPRESSION_GZIP_LEVEL);
        lz4Level = (int) longValue(LogConfigKey.COMPRESSION_LZ4_LEVEL);
        zstdLevel = (int) longValue(LogConfigKey.COMPRESSION_ZSTD_LEVEL);
        String timestampType = values.get(LogConfigKey.MESSAGE_TIMESTAMP_TYPE);
        if (!timestampType.equals("CreateTime") && !timestampType.equals("LogAppendTime")) {
            throw new IllegalArgumentException("message.timestamp.type must be CreateTime or LogAppendTime, not '"
                    + timestampType + "'");
        }
        logAppendTime = timestampType.equals("LogAppendTime");
        boolean compactPolicy = false;
        boolean deletePolicy = false;
        for (String policy : values.get(LogConfigKey.CLEANUP_POLICY).split(",")) {
            switch (policy.trim()) {
                case "compact" -> compactPolicy = true;
                case "delete" -> deletePolicy = true;
                default -> throw new IllegalArgumentException("cleanup.policy value '" + policy + "' is not delete or compact");
            }
        }
        compact = compactPolicy;
        delete = deletePolicy;
    }

    /** compression.gzip.level, .lz4.level or .zstd.level for those codecs; the codec's default for the others. */
    public int compressionLevel(CompressionType codec) {
        return switch (codec) {
            case GZIP -> gzipLevel;
            case LZ4 -> lz4Level;
            case ZSTD -> zstdLevel;
            default -> CompressionCodecs.defaultLevel(codec);
        };
    }

    /** The compression.type that keeps each batch's codec as produced. */
    static final String PRODUCER_COMPRESSION = "producer";
    /** Every compression.type value, in the order of Kafka's refusal message. */
    static final List<String> COMPRESSION_TYPES = List.of("uncompressed", "zstd", "lz4", "snappy", "gzip",
            PRODUCER_COMPRESSION);

    /** The codec a compression.type value stores batches in: null for producer or an unknown value. */
    static CompressionType finalCompression(String compressionType) {
        if (!COMPRESSION_TYPES.contains(compressionType) || compressionType.equals(PRODUCER_COMPRESSION)) {
            return null;
        }
        return compressionType.equals("uncompressed") ? CompressionType.NONE : CompressionType.forName(compressionType);
    }

    /** The compression.type value as set ({@link #finalCompression} is the codec it names). */
    public String compressionType() {
        return values.get(LogConfigKey.COMPRESSION_TYPE);
    }

    /** Kafka's defaults. */
    public static LogConfig defaults() {
        return fromProperties(Map.of());
    }

    /**
     * Defaults overridden by {@code properties} (Kafka names such as "segment.bytes"); unknown names are
     * rejected, as are values that do not parse or lie below the key's minimum.
     */
    public static LogConfig fromProperties(Map<String, String> properties) {
        Map<LogConfigKey, String> values = new EnumMap<>(LogConfigKey.class);
        for (LogConfigKey key : LogConfigKey.values()) {
            values.put(key, key.defaultValue);
        }
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            LogConfigKey key = LogConfigKey.forName(entry.getKey());
            if (key == null) {
                throw new IllegalArgumentException("Unknown log config '" + entry.getKey() + "'");
            }
            values.put(key, validated(key, entry.getValue().trim()));
        }
        return new LogConfig(values);
    }

    /** A copy with more overrides on top of this config's values. */
    public LogConfig with(Map<String, String> overrides) {
        Map<String, String> merged = new HashMap<>(asProperties());
        merged.putAll(overrides);
        return fromProperties(merged);
    }

    /**
     * As {@link #fromProperties}, for values an earlier run stored (topic overrides and dynamic broker
     * defaults in the metadata log): a name this version does not know or a value it no longer accepts
     * (an earlier version took any compression.type) is skipped with a warning, and the default applies,
     * so that the broker still starts; a request with such a value is refused.
     */
    public static LogConfig fromStoredProperties(Map<String, String> properties) {
        return fromProperties(acceptable(properties));
    }

    /** As {@link #with}, for stored overrides (see {@link #fromStoredProperties}). */
    public LogConfig withStored(Map<String, String> overrides) {
        return with(acceptable(overrides));
    }

    private static Map<String, String> acceptable(Map<String, String> stored) {
        Map<String, String> kept = new HashMap<>();
        for (Map.Entry<String, String> entry : stored.entrySet()) {
            try {
                fromProperties(Map.of(entry.getKey(), entry.getValue()));
                kept.put(entry.getKey(), entry.getValue());
            } catch (IllegalArgumentException e) {
                LOG.warn("Ignoring the stored setting {}={} (the default applies): {}", entry.getKey(),
                        entry.getValue(), e.getMessage());
            }
        }
        return kept;
    }

    /** Every value by its Kafka name, defaults included. */
    public Map<String, String> asProperties() {
        Map<String, String> out = new HashMap<>();
        values.forEach((key, value) -> out.put(key.configName, value));
        return out;
    }

    private static String validated(LogConfigKey key, String value) {
        try {
            switch (key.type) {
                case INT, LONG -> {
                    long parsed = key.type == LogConfigKey.Type.INT ? Integer.parseInt(value) : Long.parseLong(value);
                    if (!key.allows(parsed)) {
                        throw new IllegalArgumentException(parsed < key.minimum && key.maximum == Long.MAX_VALUE
                                ? key.configName + " = " + value + " is below the minimum " + key.minimum
                                : key.configName + " = " + value + " is not one of its valid values, "
                                        + key.validValues());
                    }
                }
                case DOUBLE -> Double.parseDouble(value);
                case BOOLEAN -> {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new IllegalArgumentException(key.configName + " = '" + value + "' is not true or false");
                    }
                }
                case STRING, LIST -> { }
                default -> throw new IllegalStateException("Unhandled type " + key.type);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key.configName + " = '" + value + "' is not a " + key.type, e);
        }
        String problem = key.problemWith(value);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return value;
    }

    private long longValue(LogConfigKey key) {
        return Long.parseLong(values.get(key));
    }

    @Override
    public String toString() {
        return "LogConfig" + asProperties();
    }
}
