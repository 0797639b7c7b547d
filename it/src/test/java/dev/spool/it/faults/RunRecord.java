package dev.spool.it.faults;

import dev.spool.log.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Thread-safe: the marker file of one test run under {@code /run/spool-netbed}, naming the JVM that owns the run
 * and, one per line, each namespace, network link, mount and file it creates, written before the thing exists.
 * Design note: a JVM killed with SIGKILL runs no shutdown hook, and namespaces, bridges and loop mounts outlive it;
 * the next run {@link #removeStale removes} what a dead owner's record names, and nothing else: the record is what
 * marks those things as a test's. An owner is identified by pid and start time, so a reused pid (after a reboot, say)
 * is not taken for it.
 */
final class RunRecord {

    static final Path DIRECTORY = Path.of("/run/spool-netbed");

    private final Path file;

    private RunRecord(Path file) {
        this.file = file;
    }

    /** Starts the record of run {@code runId}, owned by this JVM (its pid and start time: pids are reused). */
    static RunRecord create(String runId) throws IOException {
        Files.createDirectories(DIRECTORY);
        Path file = DIRECTORY.resolve(runId);
        ProcessHandle self = ProcessHandle.current();
        Files.writeString(file, "owner " + self.pid() + " " + startMillis(self).orElse(0L) + "\n",
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new RunRecord(file);
    }

    /** Notes that this run is about to create a thing of {@code kind} (netns, link, mount, file, tree) named {@code name}. */
    synchronized void add(String kind, String name) throws IOException {
        Files.writeString(file, kind + " " + name + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** The run has removed everything it recorded. */
    synchronized void delete() throws IOException {
        Files.deleteIfExists(file);
    }

    /** Removes whatever the records of runs whose owner JVM has ended still name; answers what it removed. */
    static List<String> removeStale() throws IOException, InterruptedException {
        List<String> removed = new ArrayList<>();
        if (!Files.isDirectory(DIRECTORY)) {
            return removed;
        }
        List<Path> records;
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            records = files.filter(Files::isRegularFile).toList();
        }
        for (Path record : records) {
            List<String> lines = Files.readAllLines(record);
            if (lines.isEmpty() || ownerAlive(lines.get(0))) {
                continue;
            }
            List<String> entries = new ArrayList<>(lines.subList(1, lines.size()));
            Collections.reverse(entries); // undone in the reverse order of creation: mounts before namespaces
            for (String entry : entries) {
                String[] kindAndName = entry.split(" ", 2);
                undo(kindAndName[0], kindAndName[1]);
                removed.add(entry);
            }
            Files.deleteIfExists(record);
        }
        return removed;
    }

    /** Removes one recorded thing; one that is already gone is fine (the owner may have removed it itself). */
    static void undo(String kind, String name) throws IOException, InterruptedException {
        switch (kind) {
            case "netns" -> {
                killEveryProcessIn(name);
                HostCommand.succeeds("ip", "netns", "del", name);
            }
            case "link" -> HostCommand.succeeds("ip", "link", "del", name);
            case "mount" -> {
                HostCommand.succeeds("umount", "-l", name); // lazy: a dead node's namespace may still hold it
                Files.deleteIfExists(Path.of(name));
            }
            case "file" -> Files.deleteIfExists(Path.of(name));
            case "tree" -> FileTrees.deleteRecursively(Path.of(name));
            default -> throw new IOException("unknown kind " + kind + " in a record of " + DIRECTORY);
        }
    }

    /** SIGKILLs, by pid, each process still running in namespace {@code name} (only tests' nodes run there). */
    static void killEveryProcessIn(String name) throws IOException, InterruptedException {
        if (!Files.exists(Path.of("/run/netns", name))) {
            return;
        }
        for (String pid : HostCommand.run("ip", "netns", "pids", name).split("\\s+")) {
            if (!pid.isBlank()) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static boolean ownerAlive(String ownerLine) {
        String[] fields = ownerLine.split(" ");
        Optional<ProcessHandle> owner = ProcessHandle.of(Long.parseLong(fields[1]));
        return owner.isPresent() && owner.get().isAlive()
                && startMillis(owner.get()).orElse(0L) == Long.parseLong(fields[2]);
    }

    private static Optional<Long> startMillis(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli);
    }
}
