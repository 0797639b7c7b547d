package dev.spool.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DescribeLogDirs and DeleteRecords through the Java Admin client, and topic config changes that take
 * effect on the next produce without a restart, against a real broker.
 */
class LogAdminIT {

    private static SpoolProcess spool;
    private static Admin admin;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start() throws Exception {
        spool = SpoolProcess.start();
        Properties adminProperties = new Properties();
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap());
        admin = Admin.create(adminProperties);
        Properties producerProperties = new Properties();
        producerProperties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrap());
        producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProperties.put(ProducerConfig.RETRIES_CONFIG, 0);
        producerProperties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producerProperties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer = new KafkaProducer<>(producerProperties);
    }

    @AfterAll
    static void stop() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (spool != null) {
            spool.close();
        }
    }

    private static void create(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(20, TimeUnit.SECONDS);
    }

    private static RecordMetadata send(String topic, int partition, long timestampMs, byte[] value) throws Exception {
        return producer.send(new ProducerRecord<>(topic, partition, timestampMs,
                "key".getBytes(StandardCharsets.UTF_8), value)).get(20, TimeUnit.SECONDS);
    }

    private static void produce(String topic, int partition, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            send(topic, partition, System.currentTimeMillis(), ("value-" + i).getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void alter(String topic, String name, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET))))
                .all().get(20, TimeUnit.SECONDS);
    }

    @Test
    void describeLogDirsListsThePartitionsWithTheirSizes() throws Exception {
        create("dirs", 2);
        produce("dirs", 0, 10);

        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(1)).descriptions().get(1)
                .get(20, TimeUnit.SECONDS);

        assertThat(dirs).hasSize(1);
        Map.Entry<String, LogDirDescription> dir = dirs.entrySet().iterator().next();
        assertThat(dir.getKey()).isEqualTo(spool.dataDir().toAbsolutePath().normalize().toString());
        assertThat(dir.getValue().error()).isNull();
        assertThat(dir.getValue().totalBytes()).isPresent();
        assertThat(dir.getValue().usableBytes()).isPresent();
        ReplicaInfo written = dir.getValue().replicaInfos().get(new TopicPartition("dirs", 0));
        assertThat(written.size()).isPositive();
        assertThat(written.offsetLag()).isZero();
        assertThat(written.isFuture()).isFalse();
        assertThat(dir.getValue().replicaInfos().get(new TopicPartition("dirs", 1)).size()).isZero();
    }

    @Test
    void deleteRecordsMovesTheLogStartOffset() throws Exception {
        create("trimmed", 1);
        produce("trimmed", 0, 10);
        TopicPartition partition = new TopicPartition("trimmed", 0);

        long lowWatermark = admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(4)))
                .lowWatermarks().get(partition).get(20, TimeUnit.SECONDS).lowWatermark();

        assertThat(lowWatermark).isEqualTo(4);
        assertThat(admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).partitionResult(partition)
                .get(20, TimeUnit.SECONDS).offset()).isEqualTo(4);
        assertThatThrownBy(() -> admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(11)))
                .lowWatermarks().get(partition).get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(OffsetOutOfRangeException.class);
        // -1 deletes up to the high watermark.
        assertThat(admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(-1)))
                .lowWatermarks().get(partition).get(20, TimeUnit.SECONDS).lowWatermark()).isEqualTo(10);
    }

    @Test
    void maxMessageBytesChangeAppliesToTheNextProduce() throws Exception {
        create("limited", 1);
        send("limited", 0, System.currentTimeMillis(), new byte[5000]);

        alter("limited", "max.message.bytes", "1000");

        assertThatThrownBy(() -> send("limited", 0, System.currentTimeMillis(), new byte[5000]))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RecordTooLargeException.class);
        assertThat(send("limited", 0, System.currentTimeMillis(), new byte[10]).offset()).isEqualTo(1);
    }

    @Test
    void logAppendTimeChangeStampsTheNextRecords() throws Exception {
        create("stamped", 1);
        assertThat(send("stamped", 0, 1000L, new byte[1]).timestamp()).isEqualTo(1000L);

        alter("stamped", "message.timestamp.type", "LogAppendTime");

        long beforeMs = System.currentTimeMillis();
        assertThat(send("stamped", 0, 1000L, new byte[1]).timestamp()).isGreaterThanOrEqualTo(beforeMs);
    }
}
