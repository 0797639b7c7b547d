package dev.spool.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's {@code .kafka_cleanshutdown} marker in a log dir: written last by a clean shutdown, removed once the
 * directory is loaded, so its absence after a start means the process died. It holds the broker epoch of the
 * process that wrote it (Kafka 3.7+, KIP-966: {@code {"version":0,"brokerEpoch":N}}), which the next start sends
 * to the controller as its previous broker epoch; -1 when the process had none (one node, or never registered).
 * Stateless.
 */
final class CleanShutdownMarker {

    static final String FILE = ".kafka_cleanshutdown";
    private static final Pattern BROKER_EPOCH = Pattern.compile("\"brokerEpoch\"\\s*:\\s*(-?\\d+)");

    private CleanShutdownMarker() {
    }

    /** The marker's broker epoch (-1 when it names none); empty when there is no marker. */
    static OptionalLong read(Path logDir) throws IOException {
        String content;
        try {
            content = Files.readString(logDir.resolve(FILE), StandardCharsets.UTF_8);
        } catch (NoSuchFileException absent) {
            return OptionalLong.empty();
        }
        Matcher matcher = BROKER_EPOCH.matcher(content);
        return OptionalLong.of(matcher.find() ? Long.parseLong(matcher.group(1)) : -1);
    }

    /** Writes the marker durably, naming {@code brokerEpoch}. */
    static void write(Path logDir, long brokerEpoch) throws IOException {
        Path marker = logDir.resolve(FILE);
        Files.write(marker, ("{\"version\":0,\"brokerEpoch\":" + brokerEpoch + "}").getBytes(StandardCharsets.UTF_8));
        try (FileChannel channel = FileChannel.open(marker, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
