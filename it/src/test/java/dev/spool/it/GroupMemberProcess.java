package dev.spool.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@link GroupMemberMain} in a child JVM: its latest assignment as printed, and SIGKILL. Thread-safe.
 */
final class GroupMemberProcess implements AutoCloseable {

    private final Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());

    private GroupMemberProcess(Process process) {
        this.process = process;
        Thread pump = new Thread(this::pump, "group-member-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    static GroupMemberProcess start(String bootstrap, String topic, String group, String assignor) throws IOException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), GroupMemberMain.class.getName(), bootstrap, topic, group,
                assignor);
        return new GroupMemberProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    private void pump() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                output.add(line);
            }
        } catch (IOException e) {
            output.add("output failed: " + e);
        }
    }

    /** The partitions it last said it owns; empty before its first assignment. */
    Set<Integer> assignment() {
        synchronized (output) {
            for (int i = output.size() - 1; i >= 0; i--) {
                String line = output.get(i);
                if (line.startsWith("ASSIGNMENT ")) {
                    Set<Integer> partitions = new TreeSet<>();
                    String list = line.substring("ASSIGNMENT ".length()).trim();
                    if (!list.isEmpty()) {
                        for (String partition : list.split(",")) {
                            partitions.add(Integer.parseInt(partition));
                        }
                    }
                    return partitions;
                }
            }
        }
        return Set.of();
    }

    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** SIGKILL: the member vanishes without leaving its group. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
