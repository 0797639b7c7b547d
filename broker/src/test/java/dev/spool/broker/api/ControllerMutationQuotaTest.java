package dev.spool.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.broker.quota.ClientMeter;
import dev.spool.broker.quota.ClientQuotaManager;
import dev.spool.broker.quota.QuotaEntity;
import dev.spool.broker.quota.QuotaType;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.PartitionRecordData;
import dev.spool.protocol.metadata.TopicRecordData;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What controller_mutation_rate counts per topic, and which topics it refuses, before a request is handed on. */
class ControllerMutationQuotaTest {

    private final MetadataImage image = withTopic(MetadataImage.EMPTY, "existing", 3);
    // 1 partition a second: a first burst of 10.
    private final ClientQuotaManager quota = new ClientQuotaManager(QuotaType.CONTROLLER_MUTATION_RATE,
            () -> Map.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, "creator"), Map.of("controller_mutation_rate", 1.0)),
            11, 1000, 11_000);
    private final ControllerMutationQuota mutations = new ControllerMutationQuota(() -> 0L, () -> image, () -> 4);
    private final List<String> handedOn = new ArrayList<>();

    private static MetadataImage withTopic(MetadataImage image, String name, int partitions) {
        Uuid id = Uuid.randomUuid();
        List<VersionedRecord> records = new ArrayList<>();
        records.add(VersionedRecord.of(MetadataRecordType.TOPIC_RECORD, new TopicRecordData().setName(name)
                .setTopicId(id)));
        for (int partition = 0; partition < partitions; partition++) {
            records.add(VersionedRecord.of(MetadataRecordType.PARTITION_RECORD, new PartitionRecordData()
                    .setTopicId(id).setPartitionId(partition).setReplicas(List.of(1)).setIsr(List.of(1))
                    .setLeader(1)));
        }
        return image.apply(records, image.offset() + records.size());
    }

    private static RequestContext context(ApiKey api, int version) {
        return new RequestContext(api, (short) version, 1, "creator", new InetSocketAddress("127.0.0.1", 1));
    }

    private ClientMeter meter(RequestContext context) {
        return quota.meter(context.principal().name(), context.clientId());
    }

    private static CreatableTopic topic(String name, int partitions) {
        return new CreatableTopic().setName(name).setNumPartitions(partitions).setReplicationFactor((short) 1);
    }

    private CompletableFuture<Message> create(RequestContext context, Message request) {
        List<CreatableTopicResult> results = new ArrayList<>();
        for (CreatableTopic topic : ((CreateTopicsRequestData) request).topics()) {
            handedOn.add(topic.name());
            results.add(new CreatableTopicResult().setName(topic.name()).setErrorCode(Errors.NONE.code()));
        }
        return CompletableFuture.completedFuture(new CreateTopicsResponseData().setTopics(results));
    }

    private CreateTopicsResponseData createTopics(int version, CreatableTopic... topics) {
        RequestContext context = context(ApiKey.CREATE_TOPICS, version);
        return (CreateTopicsResponseData) mutations.createTopics(context,
                new CreateTopicsRequestData().setTopics(new ArrayList<>(List.of(topics))), meter(context),
                this::create).join();
    }

    @Test
    void onlyPartitionsThatWouldBeCreatedAreCountedAndTheNextTopicOverTheQuotaIsRefused() {
        CreateTopicsResponseData first = createTopics(7, topic("existing", 5), topic("new-a", 8), topic("new-a", 8),
                topic("new-b", -1), topic("invalid", 0));
        // 8 + 4 (num.partitions) = 12 of a credit of 10: new-b goes through into debt; the rest count nothing.
        assertThat(handedOn).containsExactly("existing", "new-a", "new-a", "new-b", "invalid");
        assertThat(first.throttleTimeMs()).isEqualTo(2000);

        handedOn.clear();
        CreateTopicsResponseData second = createTopics(7, topic("existing", 1), topic("new-c", 1));
        assertThat(handedOn).containsExactly("existing");
        assertThat(second.topics()).filteredOn(result -> result.name().equals("new-c"))
                .extracting(CreatableTopicResult::errorCode).containsExactly(Errors.THROTTLING_QUOTA_EXCEEDED.code());

        // Before v6 nothing is refused, only throttled.
        handedOn.clear();
        assertThat(createTopics(5, topic("new-d", 1)).throttleTimeMs()).isEqualTo(3000);
        assertThat(handedOn).containsExactly("new-d");
    }

    @Test
    void deletingWhatDoesNotExistIsNotRefusedWhileInDebt() {
        createTopics(7, topic("big", 12));
        List<String> deleted = new ArrayList<>();
        RequestContext deleting = context(ApiKey.DELETE_TOPICS, 6);
        DeleteTopicsResponseData response = (DeleteTopicsResponseData) mutations.deleteTopics(
                deleting, new DeleteTopicsRequestData().setTopicNames(
                        new ArrayList<>(List.of("unknown", "existing"))), meter(deleting), (context, request) -> {
                    deleted.addAll(((DeleteTopicsRequestData) request).topicNames());
                    return CompletableFuture.completedFuture(new DeleteTopicsResponseData());
                }).join();
        assertThat(deleted).containsExactly("unknown");
        assertThat(response.responses()).extracting(DeletableTopicResult::name, DeletableTopicResult::errorCode)
                .containsExactly(tuple("existing",
                        Errors.THROTTLING_QUOTA_EXCEEDED.code()));
    }
}
