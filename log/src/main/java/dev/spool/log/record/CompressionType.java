package dev.spool.log.record;

/**
 * Immutable: the compression codecs of record batch v2, by their attribute id (bits 0-2) and Kafka's
 * {@code compression.type} name.
 */
public enum CompressionType {
    NONE(0, "none"),
    GZIP(1, "gzip"),
    SNAPPY(2, "snappy"),
    LZ4(3, "lz4"),
    ZSTD(4, "zstd");

    private static final CompressionType[] BY_ID = values();

    public final int id;
    public final String configName;

    CompressionType(int id, String configName) {
        this.id = id;
        this.configName = configName;
    }

    /** The codec for an attribute id, or null if the id is not one of the five (5-7 are undefined). */
    public static CompressionType forId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /** The codec for a config name such as "lz4"; throws IllegalArgumentException naming the value. */
    public static CompressionType forName(String configName) {
        for (CompressionType type : BY_ID) {
            if (type.configName.equals(configName)) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown compression type '" + configName + "'");
    }
}
