package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.TopicImage;
import dev.spool.broker.quota.ClientMeter;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.CreatePartitionsRequestData;
import dev.spool.protocol.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import dev.spool.protocol.message.CreatePartitionsResponseData;
import dev.spool.protocol.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import dev.spool.protocol.message.CreateTopicsRequestData;
import dev.spool.protocol.message.CreateTopicsRequestData.CreatableTopic;
import dev.spool.protocol.message.CreateTopicsResponseData;
import dev.spool.protocol.message.CreateTopicsResponseData.CreatableTopicResult;
import dev.spool.protocol.message.DeleteTopicsRequestData;
import dev.spool.protocol.message.DeleteTopicsRequestData.DeleteTopicState;
import dev.spool.protocol.message.DeleteTopicsResponseData;
import dev.spool.protocol.message.DeleteTopicsResponseData.DeletableTopicResult;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code controller_mutation_rate} (KIP-599): the partitions a client creates (CreateTopics, CreatePartitions) and
 * deletes (DeleteTopics) count against its quota, topic by topic. From the versions that know the error
 * (CreateTopics v6, CreatePartitions v3, DeleteTopics v5) a topic asked for once the client is over its quota is
 * refused with THROTTLING_QUOTA_EXCEEDED, the topics before it go through; older versions are never refused, only
 * throttled. Only what would change is counted: not a topic that exists or is unknown, nor an invalid count, which
 * get the controller's own answer. The response tells how long the client's quota takes to repay what it used.
 * Checked where the client sent the request, before it is forwarded to the active controller (which sees only the
 * node that forwarded it): each node counts what it receives. Requests that only validate count nothing.
 * Thread-safe.
 */
final class ControllerMutationQuota {

    private static final String THROTTLED = "The throttling quota has been exceeded.";

    private final LongSupplier clockMs;
    private final Supplier<MetadataImage> image;
    private final IntSupplier defaultPartitions;

    ControllerMutationQuota(LongSupplier clockMs, Supplier<MetadataImage> image, IntSupplier defaultPartitions) {
        this.clockMs = clockMs;
        this.image = image;
        this.defaultPartitions = defaultPartitions;
    }

    /** The client's quota for one request: counts topics' partitions and says which may not go through. */
    private final class Usage {
        private final ClientMeter quota;
        private final boolean strict;
        private final long nowMs;

        Usage(RequestContext context, ClientMeter quota, int firstStrictVersion) {
            this.quota = quota;
            this.strict = context.apiVersion() >= firstStrictVersion;
            this.nowMs = clockMs.getAsLong();
        }

        /**
         * Whether a topic changing {@code partitions} partitions may go through; counted if so. One changing none
         * (it exists already, it is unknown, its count is invalid) goes on to get the controller's own answer.
         */
        boolean admits(int partitions) {
            if (partitions == 0) {
                return true;
            }
            if (strict && quota.exceeded(nowMs)) {
                return false;
            }
            quota.recordAndThrottleMs(partitions, nowMs);
            return true;
        }

        Message withThrottle(Message response) {
            long throttleMs = quota.recordAndThrottleMs(0, nowMs);
            return ClientQuotaEnforcement.throttled(response, throttleMs);
        }
    }

    CompletableFuture<Message> createTopics(RequestContext context, Message message, ClientMeter quota,
                                            ApiHandler next) {
        CreateTopicsRequestData request = (CreateTopicsRequestData) message;
        if (request.validateOnly()) {
            return next.handle(context, request);
        }
        Usage usage = new Usage(context, quota, 6);
        MetadataImage current = image.get();
        Set<String> named = new HashSet<>();
        List<CreatableTopic> admitted = new ArrayList<>();
        List<CreatableTopicResult> throttled = new ArrayList<>();
        for (CreatableTopic topic : request.topics()) {
            if (usage.admits(partitionsCreated(topic, current, named))) {
                admitted.add(topic);
            } else {
                throttled.add(new CreatableTopicResult().setName(topic.name()).setTopicId(Uuid.ZERO_UUID)
                        .setErrorCode(Errors.THROTTLING_QUOTA_EXCEEDED.code()).setErrorMessage(THROTTLED)
                        .setNumPartitions(-1).setReplicationFactor((short) -1).setConfigs(new ArrayList<>()));
            }
        }
        CreateTopicsRequestData rest = new CreateTopicsRequestData().setTopics(admitted)
                .setTimeoutMs(request.timeoutMs()).setValidateOnly(false);
        return PartialForwarding.forward(context, next, request, rest, admitted.isEmpty(), throttled.size(),
                CreateTopicsResponseData::new,
                response -> response.setTopics(PartialForwarding.concat(response.topics(), throttled)))
                .thenApply(usage::withThrottle);
    }

    CompletableFuture<Message> createPartitions(RequestContext context, Message message, ClientMeter quota,
                                                ApiHandler next) {
        CreatePartitionsRequestData request = (CreatePartitionsRequestData) message;
        if (request.validateOnly()) {
            return next.handle(context, request);
        }
        Usage usage = new Usage(context, quota, 3);
        MetadataImage current = image.get();
        List<CreatePartitionsTopic> admitted = new ArrayList<>();
        List<CreatePartitionsTopicResult> throttled = new ArrayList<>();
        for (CreatePartitionsTopic topic : request.topics()) {
            TopicImage existing = current.topic(topic.name());
            int added = existing == null ? 0 : Math.max(0, topic.count() - existing.partitions().size());
            if (usage.admits(added)) {
                admitted.add(topic);
            } else {
                throttled.add(new CreatePartitionsTopicResult().setName(topic.name())
                        .setErrorCode(Errors.THROTTLING_QUOTA_EXCEEDED.code()).setErrorMessage(THROTTLED));
            }
        }
        CreatePartitionsRequestData rest = new CreatePartitionsRequestData().setTopics(admitted)
                .setTimeoutMs(request.timeoutMs()).setValidateOnly(false);
        return PartialForwarding.forward(context, next, request, rest, admitted.isEmpty(), throttled.size(),
                CreatePartitionsResponseData::new,
                response -> response.setResults(PartialForwarding.concat(response.results(), throttled)))
                .thenApply(usage::withThrottle);
    }

    CompletableFuture<Message> deleteTopics(RequestContext context, Message message, ClientMeter quota,
                                            ApiHandler next) {
        DeleteTopicsRequestData request = (DeleteTopicsRequestData) message;
        Usage usage = new Usage(context, quota, 5);
        MetadataImage current = image.get();
        List<String> admittedNames = new ArrayList<>();
        List<DeleteTopicState> admittedStates = new ArrayList<>();
        List<DeletableTopicResult> throttled = new ArrayList<>();
        for (String name : request.topicNames()) {
            if (usage.admits(partitionsOf(current.topic(name)))) {
                admittedNames.add(name);
            } else {
                throttled.add(throttledDeletion(name, Uuid.ZERO_UUID));
            }
        }
        for (DeleteTopicState state : request.topics()) {
            TopicImage topic = state.name() != null ? current.topic(state.name()) : current.topic(state.topicId());
            if (usage.admits(partitionsOf(topic))) {
                admittedStates.add(state);
            } else {
                throttled.add(throttledDeletion(state.name(), state.topicId()));
            }
        }
        DeleteTopicsRequestData rest = new DeleteTopicsRequestData().setTopicNames(admittedNames)
                .setTopics(admittedStates).setTimeoutMs(request.timeoutMs());
        return PartialForwarding.forward(context, next, request, rest,
                        admittedNames.isEmpty() && admittedStates.isEmpty(), throttled.size(),
                        DeleteTopicsResponseData::new,
                        response -> response.setResponses(PartialForwarding.concat(response.responses(), throttled)))
                .thenApply(usage::withThrottle);
    }

    /** What creating the topic adds: nothing when it exists, is named twice or has an invalid count. */
    private int partitionsCreated(CreatableTopic topic, MetadataImage current, Set<String> named) {
        if (!named.add(topic.name()) || current.topic(topic.name()) != null) {
            return 0;
        }
        if (topic.numPartitions() > 0) {
            return topic.numPartitions();
        }
        if (topic.numPartitions() != -1) {
            return 0;
        }
        return topic.assignments().isEmpty() ? defaultPartitions.getAsInt() : topic.assignments().size();
    }

    private static int partitionsOf(TopicImage topic) {
        return topic == null ? 0 : topic.partitions().size();
    }

    private static DeletableTopicResult throttledDeletion(String name, Uuid topicId) {
        return new DeletableTopicResult().setName(name).setTopicId(topicId)
                .setErrorCode(Errors.THROTTLING_QUOTA_EXCEEDED.code()).setErrorMessage(THROTTLED);
    }
}
