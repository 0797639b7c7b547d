package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.GroupType;
import org.junit.jupiter.api.Test;

/**
 * librdkafka's consumer with the consumer group protocol of KIP-848 ({@code group.protocol=consumer}; librdkafka 2.12.0,
 * compiled by node-rdkafka 3.6.1, it/rdkafka/consume.js) on a broker that serves it: the coordinator assigns it the
 * partitions, it reads every record once and commits with its member epoch, and its group resumes at those commits.
 */
class LibrdkafkaConsumerProtocolIT {

    private static final String TOPIC = "librdkafka-consumer-protocol";
    private static final String GROUP = "librdkafka-readers";
    private static final Pattern VALUE = Pattern.compile("\"value\":\"([^\"]*)\"");

    @Test
    void aLibrdkafkaConsumerReadsEveryRecordOnceCommitsAndResumesAtItsCommits() throws Exception {
        Path scripts = NodeRdkafka.awaitInstalled();
        try (SpoolProcess spool = SpoolProcess.start("group.coordinator.rebalance.protocols=classic,consumer");
             Admin admin = GroupClients.admin(spool.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            GroupClients.produce(spool.bootstrap(), TOPIC, "before", 60);

            assertThat(consume(scripts, spool.bootstrap(), 60)).containsExactlyInAnyOrderElementsOf(values("before", 60));
            assertThat(admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP).type())
                    .as("the group's protocol").isEqualTo(GroupType.CONSUMER);
            assertThat(committedSum(admin)).as("the offsets the group committed").isEqualTo(60);

            GroupClients.produce(spool.bootstrap(), TOPIC, "after", 30);
            assertThat(consume(scripts, spool.bootstrap(), 30)).containsExactlyInAnyOrderElementsOf(values("after", 30));
            assertThat(committedSum(admin)).as("the offsets the group committed").isEqualTo(90);
        }
    }

    /** The values consume.js read, in the order it read them, once it read {@code count} records and committed. */
    private static List<String> consume(Path scripts, String bootstrap, int count) throws Exception {
        ExternalCommand.Result result = ExternalCommand.run(scripts, 90, "node", "consume.js", bootstrap, TOPIC, GROUP,
                String.valueOf(count));
        assertThat(result.exitCode()).as(result.output()).isZero();
        String read = result.output().lines().filter(line -> line.startsWith("[")).findFirst()
                .orElseThrow(() -> new AssertionError(result.output()));
        return VALUE.matcher(read).results().map(match -> match.group(1)).toList();
    }

    private static List<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
    }

    private static long committedSum(Admin admin) throws Exception {
        return GroupClients.committed(admin, GROUP, TOPIC).values().stream().mapToLong(Long::longValue).sum();
    }
}
