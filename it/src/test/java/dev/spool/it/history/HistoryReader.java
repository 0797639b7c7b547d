package dev.spool.it.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a history file written by {@link HistoryWriter} back into its events, in file order.
 * Stateless.
 *
 * <p>A last line with no line break that does not parse is the torn write of a killed test and is
 * dropped; any other line that does not parse is an error naming the file and the line number.
 */
public final class HistoryReader {

    private HistoryReader() {
    }

    public static List<HistoryEvent> read(Path file) throws IOException {
        boolean endsWithLineBreak = endsWithLineBreak(file);
        List<HistoryEvent> events = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line = in.readLine();
            int number = 1;
            while (line != null) {
                String next = in.readLine();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    try {
                        events.add(HistoryLineFormat.parse(line));
                    } catch (IllegalArgumentException e) {
                        boolean tornLastLine = next == null && !endsWithLineBreak;
                        if (!tornLastLine) {
                            throw new IOException(file + ":" + number + ": " + e.getMessage() + " in line '" + line + "'", e);
                        }
                    }
                }
                line = next;
                number++;
            }
        }
        return events;
    }

    private static boolean endsWithLineBreak(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                return true;
            }
            ByteBuffer last = ByteBuffer.allocate(1);
            channel.read(last, size - 1);
            return last.get(0) == '\n';
        }
    }
}
