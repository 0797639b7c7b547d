package dev.spool.it.history;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongSupplier;

/**
 * Thread-safe: appends events from any number of client threads (producer callbacks, consumer
 * loops) to one history file, one line each in {@link HistoryLineFormat}.
 *
 * <p>The writer stamps each event with the time since it was created, under the same lock that
 * writes the line, so the order of the lines is the real-time order the checker relies on (an
 * invoke line is written before the client is called, an ok line after it answered). Each line is
 * flushed to the operating system as it is written: a test JVM killed at any point leaves every
 * line but possibly a torn last one, which {@link HistoryReader} drops. Lines are not fsynced,
 * since only the test process, not the machine, is expected to die.
 */
public final class HistoryWriter implements Closeable {

    private final Path file;
    private final BufferedWriter out;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private long events;
    private boolean closed;

    private HistoryWriter(Path file, BufferedWriter out, LongSupplier nanoClock) {
        this.file = file;
        this.out = out;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** Creates (or truncates) {@code file} and writes the header line. */
    public static HistoryWriter create(Path file) throws IOException {
        return create(file, System::nanoTime);
    }

    /** As {@link #create(Path)}, with times read from {@code nanoClock} (tests). */
    public static HistoryWriter create(Path file, LongSupplier nanoClock) throws IOException {
        BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        out.write(HistoryLineFormat.HEADER);
        out.write('\n');
        out.flush();
        return new HistoryWriter(file, out, nanoClock);
    }

    /**
     * Stamps {@code event} with the current time, appends its line and returns the stamped event.
     * An event that cannot be written (a value with a space, say) throws before anything is written.
     *
     * @throws IllegalStateException once closed: clients must be closed before their history
     * @throws UncheckedIOException when the file cannot be written; it names the file
     */
    public synchronized HistoryEvent record(HistoryEvent event) {
        if (closed) {
            throw new IllegalStateException("history " + file + " is closed; event not recorded: " + event.operation());
        }
        HistoryEvent stamped = event.withTime(nanoClock.getAsLong() - startNanos);
        String line = HistoryLineFormat.format(stamped);
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to history " + file, e);
        }
        events++;
        return stamped;
    }

    /** A recorder that writes as {@code process}, for one client's thread or callbacks. */
    public ClientHistory client(String process) {
        return new ClientHistory(this, process);
    }

    /** How many events were recorded so far. */
    public synchronized long events() {
        return events;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
    }
}
