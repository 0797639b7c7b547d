package dev.spool.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

/**
 * What the Kafka clients inside the tests logged (simplelogger.properties sends it to target/clients.log): a failure
 * message quotes the client's side of a stall, which the nodes' output cannot show.
 */
final class ClientLog {

    private static final Path FILE = Path.of("target", "clients.log");

    private ClientLog() {
    }

    /** The last {@code count} lines containing {@code marker} (e.g. a client id), or why there are none. */
    static String last(String marker, int count) {
        Deque<String> lines = new ArrayDeque<>(count);
        try (Stream<String> all = Files.lines(FILE, StandardCharsets.UTF_8)) {
            all.filter(line -> line.contains(marker)).forEach(line -> {
                if (lines.size() == count) {
                    lines.removeFirst();
                }
                lines.addLast(line);
            });
        } catch (IOException | RuntimeException e) {
            return "(no client log: " + e + ")";
        }
        return lines.isEmpty() ? "(nothing logged by " + marker + ")" : String.join("\n", lines);
    }
}
