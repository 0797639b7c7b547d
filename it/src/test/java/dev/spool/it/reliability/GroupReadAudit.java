package dev.spool.it.reliability;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Checks what a group member read against the log as it ends up: offset by offset, the member read each record of
 * every partition, with the value the log holds there. Together with {@link LogAudit} on the same log (every
 * acknowledged record once, per key in order), that is: the group read every acknowledged record exactly once, in
 * order per partition, and nothing that is not in the log. What {@link GroupReadHistory} found while it read (a skip, a
 * re-read below an acknowledged commit, an offset read with two values) is reported too. Not thread-safe.
 */
public final class GroupReadAudit {

    private GroupReadAudit() {
    }

    /** The problems found (empty when none), at most 20. */
    public static List<String> check(String bootstrap, String topic, int partitions, GroupReadHistory history) {
        List<String> problems = new ArrayList<>(history.problems());
        for (int partition = 0; partition < partitions; partition++) {
            List<ConsumerRecord<String, String>> log = PartitionReader.readAll(bootstrap, topic, partition);
            List<String> read = history.values(partition);
            if (read.size() != log.size()) {
                problems.add("partition " + partition + ": the group read offsets 0 to " + (read.size() - 1)
                        + ", the log holds 0 to " + (log.size() - 1));
            }
            for (ConsumerRecord<String, String> record : log) {
                if (record.offset() < read.size() && !read.get((int) record.offset()).equals(record.value())) {
                    problems.add("partition " + partition + " offset " + record.offset() + ": the group read "
                            + read.get((int) record.offset()) + ", the log holds " + record.value());
                }
                if (problems.size() >= 20) {
                    return problems;
                }
            }
        }
        return problems;
    }
}
