package dev.spool.broker.cluster;

import dev.spool.log.DurableTextFile;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The {@code meta.properties} file of a log directory, as Kafka writes it: {@code version=1},
 * {@code cluster.id}, {@code node.id} and {@code directory.id}. Created on first start; a directory
 * that belongs to another node is refused. Immutable.
 */
public record MetaProperties(String clusterId, int nodeId, String directoryId) {

    public static final String FILE_NAME = "meta.properties";

    /** Reads the directory's meta.properties, or creates it with a new cluster id. */
    public static MetaProperties loadOrCreate(Path logDir, int nodeId) throws IOException {
        return loadOrCreate(logDir, nodeId, "");
    }

    /**
     * Reads the directory's meta.properties, or creates it with {@code clusterId} (a new random one when empty). A
     * directory of another cluster than a non-empty {@code clusterId} is refused: two clusters must never mix.
     */
    public static MetaProperties loadOrCreate(Path logDir, int nodeId, String clusterId) throws IOException {
        Files.createDirectories(logDir);
        Path file = logDir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            MetaProperties existing = read(file);
            if (existing.nodeId != nodeId) {
                throw new IOException(file + " belongs to node.id " + existing.nodeId + " but this broker is node.id "
                        + nodeId);
            }
            if (!clusterId.isEmpty() && !clusterId.equals(existing.clusterId)) {
                throw new IOException(file + " belongs to cluster " + existing.clusterId + " but cluster.id is "
                        + clusterId + ": a log dir never moves between clusters");
            }
            return existing;
        }
        MetaProperties created = new MetaProperties(clusterId.isEmpty() ? Uuid.randomUuid().toString() : clusterId,
                nodeId, Uuid.randomUuid().toString());
        created.write(file);
        return created;
    }

    /** Whether {@code logDir} has a meta.properties (was started, or formatted, before). */
    public static boolean existsIn(Path logDir) {
        return Files.exists(logDir.resolve(FILE_NAME));
    }

    /** Writes these ids into {@code logDir}'s meta.properties, creating the directory (what a format step does). */
    public void writeTo(Path logDir) throws IOException {
        Files.createDirectories(logDir);
        write(logDir.resolve(FILE_NAME));
    }

    static MetaProperties read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        String clusterId = properties.getProperty("cluster.id");
        String nodeId = properties.getProperty("node.id");
        if (clusterId == null || nodeId == null) {
            throw new IOException(file + " lacks cluster.id or node.id");
        }
        try {
            return new MetaProperties(clusterId, Integer.parseInt(nodeId.trim()), properties.getProperty("directory.id"));
        } catch (NumberFormatException e) {
            throw new IOException(file + " has an invalid node.id '" + nodeId + "'", e);
        }
    }

    void write(Path file) throws IOException {
        // Written by hand rather than with Properties.store, whose date comment costs ~50 ms of time-zone and
        // locale start-up on a broker's first start; the values are base64url ids and digits, nothing to escape.
        String content = "version=1\ncluster.id=" + clusterId + "\nnode.id=" + nodeId + "\ndirectory.id=" + directoryId
                + "\n";
        DurableTextFile.write(file, content);
    }
}
