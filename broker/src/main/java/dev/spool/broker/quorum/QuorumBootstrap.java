package dev.spool.broker.quorum;

import dev.spool.log.DurableTextFile;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The first voters of a dynamic metadata quorum (KIP-853), as {@code bin/spool format} wrote them into a
 * controller's log dir (Kafka's {@code kafka-storage format --standalone}, {@code --initial-controllers} or
 * {@code --no-initial-controllers}): the file {@code quorum-bootstrap.properties} holds one line,
 * {@code initial.controllers=id@host:port:directoryId,...} (empty: this controller waits to be added). Read once, at
 * the controller's first start, when its Raft storage is created; from then on the Raft log holds the voters.
 * Immutable.
 */
public record QuorumBootstrap(List<QuorumVoter> initialVoters) {

    public static final String FILE_NAME = "quorum-bootstrap.properties";
    private static final String KEY = "initial.controllers";

    public QuorumBootstrap {
        initialVoters = List.copyOf(initialVoters);
    }

    /** Whether {@code logDir} was formatted for a dynamic quorum. */
    public static boolean existsIn(Path logDir) {
        return Files.isRegularFile(logDir.resolve(FILE_NAME));
    }

    /** The file in {@code logDir}; an IOException names it when it is missing or unreadable. */
    public static QuorumBootstrap readFrom(Path logDir) throws IOException {
        Path file = logDir.resolve(FILE_NAME);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        String voters = properties.getProperty(KEY);
        if (voters == null) {
            throw new IOException(file + " lacks " + KEY);
        }
        try {
            return new QuorumBootstrap(voters.isBlank() ? List.of() : QuorumVoter.parseInitialControllers(voters));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the file into {@code logDir}, durably. */
    public void writeTo(Path logDir) throws IOException {
        String voters = initialVoters.stream().map(QuorumVoter::initialControllerEntry).collect(Collectors.joining(","));
        DurableTextFile.write(logDir.resolve(FILE_NAME), KEY + "=" + voters + "\n");
    }
}
