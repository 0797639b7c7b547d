package dev.spool.it;

import dev.spool.fixtures.JavaCommand;
import dev.spool.fixtures.ProcessOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@link GroupMemberMain} in a child JVM: its latest assignment as printed, what it read and committed, and SIGKILL.
 * Thread-safe.
 */
final class GroupMemberProcess implements AutoCloseable {

    private final Process process;
    private final ProcessOutput output;

    private GroupMemberProcess(Process process) {
        this.process = process;
        this.output = ProcessOutput.pump(process, "group-member-" + process.pid());
    }

    static GroupMemberProcess start(String bootstrap, String topic, String group, String assignor) throws IOException {
        List<String> command = JavaCommand.onThisClassPath(KafkaTool.jvmOptions("-Xmx128m"), GroupMemberMain.class.getName(),
                List.of(bootstrap, topic, group, assignor));
        return new GroupMemberProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** The partitions it last said it owns; empty before its first assignment. */
    Set<Integer> assignment() {
        List<String> lines = output.lines();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i);
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
        return Set.of();
    }

    /**
     * The values of the polls whose commit it confirmed ({@code committed} true), or of those whose commit failed or
     * never ended (it was killed first).
     */
    List<String> reads(boolean committed) {
        List<String> values = new ArrayList<>();
        List<String> pending = List.of();
        for (String line : output.lines()) {
            if (line.startsWith("READ ")) {
                if (!committed) {
                    values.addAll(pending);
                }
                pending = List.of(line.substring("READ ".length()).split(","));
            } else if (line.equals("COMMITTED")) {
                if (committed) {
                    values.addAll(pending);
                }
                pending = List.of();
            }
        }
        if (!committed) {
            values.addAll(pending);
        }
        return values;
    }

    String output() {
        return String.join("\n", output.lines());
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
