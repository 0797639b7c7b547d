package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The consumer group protocol (KIP-848, {@code group.protocol=consumer}) with Kafka's Java client, on a broker that
 * serves it ({@code group.coordinator.rebalance.protocols=classic,consumer}): the coordinator assigns, members
 * commit with their epochs, a group resumes at its commits, and members joining and leaving share the partitions
 * without two ever owning one at once.
 */
class ConsumerProtocolIT {

    private static final int PARTITIONS = 6;

    @RegisterExtension
    static final SharedSpoolProcess SPOOL = new SharedSpoolProcess("group.coordinator.rebalance.protocols=classic,consumer",
            "group.consumer.heartbeat.interval.ms=500", "group.consumer.session.timeout.ms=6000");

    @Test
    void aMemberReadsEveryRecordOnceCommitsAndTheGroupResumesAtItsCommits() throws Exception {
        String topic = createTopic("resume-new-protocol");
        GroupClients.produce(bootstrap(), topic, "before", 300);
        Set<String> read = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap(), "resumers")) {
            consumer.subscribe(List.of(topic));
            pollUntil(List.of(consumer), read, 300);
            assertThat(consumer.assignment()).hasSize(PARTITIONS);
        }
        GroupClients.produce(bootstrap(), topic, "after", 100);
        Set<String> resumed = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap(), "resumers")) {
            consumer.subscribe(List.of(topic));
            pollUntil(List.of(consumer), resumed, 100);
        }
        assertThat(resumed).allMatch(value -> value.startsWith("after-"));
        try (Admin admin = GroupClients.admin(bootstrap())) {
            assertThat(GroupClients.committed(admin, "resumers", topic).values().stream().mapToLong(Long::longValue)
                    .sum()).isEqualTo(400);
        }
    }

    @Test
    void threeMembersShareTheSixPartitionsAndTheOthersTakeOverFromOneThatLeaves() throws Exception {
        String topic = createTopic("shared-new-protocol");
        GroupClients.produce(bootstrap(), topic, "first", 600);
        List<KafkaConsumer<String, String>> members = new ArrayList<>();
        Set<String> read = new HashSet<>();
        try {
            for (int i = 0; i < 3; i++) {
                KafkaConsumer<String, String> member = consumer(bootstrap(), "sharers");
                member.subscribe(List.of(topic));
                members.add(member);
            }
            pollUntil(members, read, 600);
            awaitShared(members, 3);
            describedAsTheMembersOwnThem(members, "sharers", topic);

            members.remove(2).close();
            GroupClients.produce(bootstrap(), topic, "second", 300);
            pollUntil(members, read, 900);
            awaitShared(members, 2);
        } finally {
            members.forEach(KafkaConsumer::close);
        }
    }

    /**
     * The admin client (ConsumerGroupDescribe) and {@code kafka-consumer-groups --describe --members --verbose} show
     * each member with the partitions it owns; the group is listed as a consumer group.
     */
    private static void describedAsTheMembersOwnThem(List<KafkaConsumer<String, String>> members, String group,
                                                     String topic) throws Exception {
        Set<Set<TopicPartition>> owned = new HashSet<>();
        members.forEach(member -> owned.add(member.assignment()));
        try (Admin admin = GroupClients.admin(bootstrap())) {
            ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).all()
                    .get(30, TimeUnit.SECONDS).get(group);
            assertThat(described.type()).isEqualTo(GroupType.CONSUMER);
            assertThat(described.groupState()).isEqualTo(GroupState.STABLE);
            assertThat(described.members()).extracting(member -> member.assignment().topicPartitions())
                    .containsExactlyInAnyOrderElementsOf(owned);
            assertThat(admin.listGroups().all().get(30, TimeUnit.SECONDS)).anyMatch(listed ->
                    listed.groupId().equals(group) && listed.type().orElse(null) == GroupType.CONSUMER);
        }
        ExternalCommand.Result tool = KafkaTool.run("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--bootstrap-server", bootstrap(), "--describe", "--group", group, "--members", "--verbose");
        assertThat(tool.exitCode()).as(tool.output()).isZero();
        for (KafkaConsumer<String, String> member : members) {
            String partitions = member.assignment().stream().map(TopicPartition::partition).sorted()
                    .map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
            assertThat(tool.output()).as("a line with %s:%s", topic, partitions).contains(topic + ":" + partitions);
        }
    }

    @Test
    void aStaticMemberRestartedWithinItsSessionGetsItsPartitionsBackWithoutMovingTheOthers() throws Exception {
        String topic = createTopic("static-new-protocol");
        List<KafkaConsumer<String, String>> members = new ArrayList<>();
        try {
            members.add(consumer(bootstrap(), "statics", ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "reader-a"));
            members.add(consumer(bootstrap(), "statics"));
            members.forEach(member -> member.subscribe(List.of(topic)));
            awaitShared(members, 2);
            Set<TopicPartition> staticOwned = Set.copyOf(members.get(0).assignment());
            Set<TopicPartition> otherOwned = Set.copyOf(members.get(1).assignment());

            members.remove(0).close(); // leaves with epoch -2: its partitions wait for it
            KafkaConsumer<String, String> restarted = consumer(bootstrap(), "statics",
                    ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "reader-a");
            members.add(0, restarted);
            restarted.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (restarted.assignment().isEmpty()) {
                assertThat(System.nanoTime()).as("the restarted member's assignment").isLessThan(deadline);
                members.forEach(member -> member.poll(Duration.ofMillis(100)));
                assertThat(members.get(1).assignment()).as("the other member's partitions").isEqualTo(otherOwned);
            }
            assertThat(restarted.assignment()).isEqualTo(staticOwned);
            try (Admin admin = GroupClients.admin(bootstrap())) {
                assertThat(admin.describeConsumerGroups(List.of("statics")).all().get(30, TimeUnit.SECONDS)
                        .get("statics").members()).hasSize(2).anyMatch(member ->
                        member.groupInstanceId().orElse("").equals("reader-a"));
            }
        } finally {
            members.forEach(KafkaConsumer::close);
        }
    }

    /**
     * A group whose members all left changes protocol as its next member joins, keeping its committed offsets: classic
     * to consumer and back (Kafka's offline migration). Then, empty, it can be deleted, and its offsets go with it.
     */
    @Test
    void anEmptyGroupMovesBetweenProtocolsAtItsCommitsAndIsDeletedOnceEmpty() throws Exception {
        String topic = createTopic("migrate-offline");
        GroupClients.produce(bootstrap(), topic, "classic", 60);
        Set<String> read = new HashSet<>();
        try (KafkaConsumer<String, String> classic = GroupClients.consumer(bootstrap(), "migrating", "earliest")) {
            classic.subscribe(List.of(topic));
            pollUntil(List.of(classic), read, 60);
        }
        GroupClients.produce(bootstrap(), topic, "consumer", 40);
        try (KafkaConsumer<String, String> upgraded = consumer(bootstrap(), "migrating")) {
            upgraded.subscribe(List.of(topic));
            pollUntil(List.of(upgraded), read, 100);
        }
        GroupClients.produce(bootstrap(), topic, "classic-again", 20);
        try (KafkaConsumer<String, String> downgraded = GroupClients.consumer(bootstrap(), "migrating", "earliest")) {
            downgraded.subscribe(List.of(topic));
            pollUntil(List.of(downgraded), read, 120);
        }
        try (Admin admin = GroupClients.admin(bootstrap())) {
            assertThat(GroupClients.committed(admin, "migrating", topic).values().stream().mapToLong(Long::longValue)
                    .sum()).isEqualTo(120);
            admin.deleteConsumerGroups(List.of("migrating")).all().get(30, TimeUnit.SECONDS);
            assertThat(GroupClients.committed(admin, "migrating", topic)).isEmpty();
        }
    }

    /**
     * A subscription by regular expression (KIP-848: the broker matches it, RE2 syntax): the member reads the topics
     * it matches, not the others, and a matching topic created later reaches it without a new subscribe.
     */
    @Test
    void aMemberSubscribedByARegularExpressionReadsTheTopicsItMatchesAndNewOnes() throws Exception {
        String first = createTopic("regex-orders-1");
        createTopic("regex-audit");
        GroupClients.produce(bootstrap(), first, "first", 30);
        GroupClients.produce(bootstrap(), "regex-audit", "audit", 10);
        Set<String> read = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap(), "regexers")) {
            consumer.subscribe(new SubscriptionPattern("regex-orders-.*"));
            pollUntil(List.of(consumer), read, 30);
            String second = createTopic("regex-orders-2");
            GroupClients.produce(bootstrap(), second, "second", 20);
            pollUntil(List.of(consumer), read, 50);
            assertThat(consumer.assignment()).extracting(TopicPartition::topic).containsOnly(first, second);
        }
        assertThat(read).noneMatch(value -> value.startsWith("audit-"));
        try (Admin admin = GroupClients.admin(bootstrap())) {
            assertThat(admin.describeConsumerGroups(List.of("regexers")).all().get(30, TimeUnit.SECONDS)
                    .get("regexers").groupState()).isEqualTo(GroupState.EMPTY);
        }
    }

    @Test
    void aBrokerThatDoesNotServeTheProtocolIsToldApartByTheClient() throws Exception {
        try (SpoolProcess classicOnly = SpoolProcess.start("group.coordinator.rebalance.protocols=classic");
             KafkaConsumer<String, String> consumer = consumer(classicOnly.bootstrap(), "refused")) {
            consumer.subscribe(List.of("anything"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Throwable failure = null;
            while (failure == null && System.nanoTime() < deadline) {
                failure = catchThrowable(() -> consumer.poll(Duration.ofMillis(200)));
            }
            assertThat(failure).isInstanceOf(UnsupportedVersionException.class);
        }
    }

    private static String bootstrap() {
        return SPOOL.process().bootstrap();
    }

    private static String createTopic(String name) throws Exception {
        try (Admin admin = GroupClients.admin(bootstrap())) {
            admin.createTopics(List.of(new NewTopic(name, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return name;
    }

    /**
     * Polls the members in turn, each committing synchronously what it read, until {@code read} holds {@code count}
     * values: a value read twice fails, and so do two members owning one partition at once.
     */
    private static void pollUntil(List<KafkaConsumer<String, String>> members, Set<String> read, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (read.size() < count) {
            assertThat(System.nanoTime()).as("%d of %d read", read.size(), count).isLessThan(deadline);
            for (KafkaConsumer<String, String> member : members) {
                for (ConsumerRecord<String, String> record : member.poll(Duration.ofMillis(100))) {
                    assertThat(read.add(record.value())).as("read twice: %s", record.value()).isTrue();
                }
                member.commitSync();
                GroupClients.assertNoPartitionOwnedTwice(members);
            }
        }
    }

    /** Polls until every member owns some partitions and together they own all of them. */
    private static void awaitShared(List<KafkaConsumer<String, String>> members, int expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Set<TopicPartition> owned = new HashSet<>();
            members.forEach(member -> owned.addAll(member.assignment()));
            if (owned.size() == PARTITIONS && members.stream().noneMatch(member -> member.assignment().isEmpty())) {
                assertThat(members).hasSize(expected);
                return;
            }
            assertThat(System.nanoTime()).as("assignments %s", members.stream().map(KafkaConsumer::assignment)
                    .toList()).isLessThan(deadline);
            for (KafkaConsumer<String, String> member : members) {
                assertThat(member.poll(Duration.ofMillis(100))).as("nothing left to read").isEmpty();
                GroupClients.assertNoPartitionOwnedTwice(members);
            }
        }
    }

    /** A consumer of the new protocol with manual commits; {@code extraConfig} are further name, value pairs. */
    private static KafkaConsumer<String, String> consumer(String bootstrap, String group, String... extraConfig) {
        Properties props = new Properties();
        for (int i = 0; i + 1 < extraConfig.length; i += 2) {
            props.put(extraConfig[i], extraConfig[i + 1]);
        }
        props.putAll(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20"));
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }
}
