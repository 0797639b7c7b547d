package dev.spool.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log dir that fails I/O on an embedded broker with two log dirs, seen through Kafka's Java clients and
 * raw requests: the dir goes offline, its partition answers KAFKA_STORAGE_ERROR to every API, the other dir
 * serves on, and a restart with the dir healthy brings the partition back. The failure is a real failing
 * system call (the next segment's index file cannot be created where a directory stands), so it runs
 * anywhere, root or not; {@code DiskFullIT} does the same with a file system that fails under the broker.
 */
class LogDirFailureTest {

    private static final String DOOMED = "doomed";
    private static final String HEALTHY = "healthy";
    /** Fits in a segment (segment.bytes 1024) but not beside what is there: the append rolls a new one. */
    private static final String BIG_VALUE = "x".repeat(900);

    @TempDir
    Path root;

    @Test
    void aFailedLogDirGoesOfflineAndTheBrokerServesTheOtherDir() throws Exception {
        Path first = root.resolve("d1");
        Path second = root.resolve("d2");
        Map<String, String> settings = Map.of("log.dirs", first + "," + second);
        try (EmbeddedSpool spool = Spool.embedded(settings); Admin admin = admin(spool);
             KafkaProducer<String, String> producer = producer(spool)) {
            // The metadata log took the first dir; placement by fewest partitions puts doomed on the second.
            admin.createTopics(List.of(new NewTopic(DOOMED, 1, (short) 1).configs(Map.of("segment.bytes", "1024"))))
                    .all().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic(HEALTHY, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            int node = spool.broker().cluster().controllerId();
            assertThat(second.resolve(DOOMED + "-0")).isDirectory();
            assertThat(first.resolve(HEALTHY + "-0")).isDirectory();
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(DOOMED, "before " + i)).get(30, TimeUnit.SECONDS);
            }
            // The next append needs a new segment (segment.bytes 1024), whose index cannot be created.
            Path blocker = second.resolve(DOOMED + "-0/00000000000000000003.index");
            Files.createDirectories(blocker);

            assertStorageError(catchThrowable(() -> producer.send(new ProducerRecord<>(DOOMED, BIG_VALUE))
                    .get(30, TimeUnit.SECONDS)));
            assertStorageError(catchThrowable(() -> producer.send(new ProducerRecord<>(DOOMED, "small"))
                    .get(30, TimeUnit.SECONDS)));

            Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(node)).allDescriptions()
                    .get(30, TimeUnit.SECONDS).get(node);
            assertThat(dirs).containsOnlyKeys(first.toString(), second.toString());
            assertThat(dirs.get(second.toString()).error()).isInstanceOf(KafkaStorageException.class);
            assertThat(dirs.get(second.toString()).replicaInfos()).isEmpty();
            assertThat(dirs.get(first.toString()).error()).isNull();
            assertThat(dirs.get(first.toString()).replicaInfos()).containsKey(new TopicPartition(HEALTHY, 0));

            try (RawConnection raw = new RawConnection(spool.port())) {
                assertThat(raw.fetchError(DOOMED)).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
                assertThat(raw.listOffsetsError(DOOMED)).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
                assertThat(raw.fetchError(HEALTHY)).isEqualTo(Errors.NONE);
                MetadataResponseData.MetadataResponsePartition partition = raw.metadata(DOOMED);
                assertThat(Errors.forCode(partition.errorCode())).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
                assertThat(partition.leaderId()).isEqualTo(node);
                assertThat(partition.offlineReplicas()).containsExactly(node);
                assertThat(raw.metadata(HEALTHY).offlineReplicas()).isEmpty();
            }
            try (KafkaProducer<String, String> fresh = producer(spool)) {
                PartitionInfo info = fresh.partitionsFor(DOOMED).get(0);
                assertThat(info.offlineReplicas()).extracting(replica -> replica.id()).containsExactly(node);
                assertThat(info.leader().id()).isEqualTo(node);
            }

            // the other dir: produce, consume, new topics all land there
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(HEALTHY, "fine " + i)).get(30, TimeUnit.SECONDS);
            }
            assertThat(readAll(spool, HEALTHY, 5)).hasSize(5);
            admin.createTopics(List.of(new NewTopic("later", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(first.resolve("later-0")).isDirectory();
            assertThat(first.resolve("later-1")).isDirectory();
            assertThat(second.resolve("later-0")).doesNotExist();
            producer.send(new ProducerRecord<>("later", 1, null, "new")).get(30, TimeUnit.SECONDS);
            Files.delete(blocker);
        }

        // restart with the dir healthy: the partition is back with its records and takes writes
        try (EmbeddedSpool spool = Spool.embedded(settings); KafkaProducer<String, String> producer = producer(spool)) {
            producer.send(new ProducerRecord<>(DOOMED, "after")).get(30, TimeUnit.SECONDS);
            assertThat(readAll(spool, DOOMED, 4)).extracting(ConsumerRecord::value)
                    .containsExactly("before 0", "before 1", "before 2", "after");
            assertThat(readAll(spool, HEALTHY, 5)).hasSize(5);
        }
    }

    @Test
    void whenEveryLogDirHasFailedTheBrokerStops() throws Exception {
        Path only = root.resolve("only");
        try (EmbeddedSpool spool = Spool.embedded(Map.of("log.dirs", only.toString()));
             Admin admin = admin(spool); KafkaProducer<String, String> producer = producer(spool)) {
            admin.createTopics(List.of(new NewTopic(DOOMED, 1, (short) 1).configs(Map.of("segment.bytes", "1024"))))
                    .all().get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(DOOMED, "before")).get(30, TimeUnit.SECONDS);
            Files.createDirectories(only.resolve(DOOMED + "-0/00000000000000000001.index"));

            assertStorageError(catchThrowable(() -> producer.send(new ProducerRecord<>(DOOMED, BIG_VALUE))
                    .get(30, TimeUnit.SECONDS)));

            // Kafka stops a broker with no log dir left; the embedded one closes itself (and stops listening).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            boolean listening = true;
            while (listening && System.nanoTime() < deadline) {
                try (Socket socket = new Socket("127.0.0.1", spool.port())) {
                    Thread.sleep(50);
                } catch (ConnectException e) {
                    listening = false;
                }
            }
            assertThat(listening).as("the broker stopped listening").isFalse();
        }
    }

    private static void assertStorageError(Throwable failure) {
        assertThat(failure).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(KafkaStorageException.class);
    }

    private static Admin admin(EmbeddedSpool spool) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrapServers()));
    }

    private static KafkaProducer<String, String> producer(EmbeddedSpool spool) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(), new StringSerializer());
    }

    private static List<ConsumerRecord<String, String>> readAll(EmbeddedSpool spool, String topic, int expected) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, spool.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** Requests built and parsed with kafka-clients' message classes, on one socket. Not thread-safe. */
    private static final class RawConnection implements AutoCloseable {
        private final Socket socket;
        private int correlationId;

        RawConnection(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
        }

        Errors fetchError(String topic) throws IOException {
            FetchRequestData request = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                    .setMaxBytes(1 << 20).setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(topic)
                            .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0)
                                    .setFetchOffset(0).setPartitionMaxBytes(1 << 20)))));
            FetchResponseData response = ((FetchResponse) send(ApiKeys.FETCH, (short) 12, request)).data();
            return Errors.forCode(response.responses().get(0).partitions().get(0).errorCode());
        }

        Errors listOffsetsError(String topic) throws IOException {
            ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(
                    new ListOffsetsRequestData.ListOffsetsTopic().setName(topic).setPartitions(List.of(
                            new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1)))));
            ListOffsetsResponseData response = ((ListOffsetsResponse) send(ApiKeys.LIST_OFFSETS, (short) 7, request))
                    .data();
            return Errors.forCode(response.topics().get(0).partitions().get(0).errorCode());
        }

        MetadataResponseData.MetadataResponsePartition metadata(String topic) throws IOException {
            MetadataRequestData request = new MetadataRequestData().setTopics(List.of(
                    new MetadataRequestData.MetadataRequestTopic().setName(topic)));
            MetadataResponseData response = ((MetadataResponse) send(ApiKeys.METADATA, (short) 12, request)).data();
            return response.topics().iterator().next().partitions().get(0);
        }

        private AbstractResponse send(ApiKeys api, short version, ApiMessage request) throws IOException {
            RequestHeader header = new RequestHeader(api, version, "raw", ++correlationId);
            ByteBuffer frame = RequestUtils.serialize(header.data(), header.headerVersion(), request, version);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frame.remaining());
            out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
