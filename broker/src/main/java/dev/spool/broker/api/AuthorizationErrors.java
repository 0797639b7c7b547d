package dev.spool.broker.api;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.ElectLeadersRequestData;
import dev.spool.protocol.message.ElectLeadersResponseData;
import dev.spool.protocol.message.WriteTxnMarkersRequestData;
import dev.spool.protocol.message.WriteTxnMarkersResponseData;
import dev.spool.protocol.types.Message;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The response of an API refused as a whole: the error (CLUSTER_AUTHORIZATION_FAILED and the like) in the response's
 * top-level error code, or, for an API whose response has none, on every item the request named. Stateless.
 */
final class AuthorizationErrors {

    private AuthorizationErrors() {
    }

    /** {@code api}'s response to {@code request} carrying {@code error}; null if this API's response cannot carry it. */
    static Message responseFor(ApiKey api, Message request, Errors error) {
        short code = error.code();
        Message perItem = ControllerErrors.responseFor(api, request, code);
        if (perItem != null) {
            return perItem;
        }
        switch (api) {
            case WRITE_TXN_MARKERS -> {
                List<WriteTxnMarkersResponseData.WritableTxnMarkerResult> markers = new ArrayList<>();
                for (WriteTxnMarkersRequestData.WritableTxnMarker marker
                        : ((WriteTxnMarkersRequestData) request).markers()) {
                    List<WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult> topics = new ArrayList<>();
                    for (WriteTxnMarkersRequestData.WritableTxnMarkerTopic topic : marker.topics()) {
                        List<WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult> partitions =
                                new ArrayList<>();
                        topic.partitionIndexes().forEach(partition -> partitions.add(new WriteTxnMarkersResponseData
                                .WritableTxnMarkerPartitionResult().setPartitionIndex(partition).setErrorCode(code)));
                        topics.add(new WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult()
                                .setName(topic.name()).setPartitions(partitions));
                    }
                    markers.add(new WriteTxnMarkersResponseData.WritableTxnMarkerResult()
                            .setProducerId(marker.producerId()).setTopics(topics));
                }
                return new WriteTxnMarkersResponseData().setMarkers(markers);
            }
            case ELECT_LEADERS -> {
                // v0 has no top-level error code: each partition carries it.
                List<ElectLeadersResponseData.ReplicaElectionResult> topics = new ArrayList<>();
                ElectLeadersRequestData elect = (ElectLeadersRequestData) request;
                if (elect.topicPartitions() != null) {
                    for (ElectLeadersRequestData.TopicPartitions topic : elect.topicPartitions()) {
                        List<ElectLeadersResponseData.PartitionResult> partitions = new ArrayList<>();
                        topic.partitions().forEach(partition -> partitions.add(new ElectLeadersResponseData
                                .PartitionResult().setPartitionId(partition).setErrorCode(code)));
                        topics.add(new ElectLeadersResponseData.ReplicaElectionResult().setTopic(topic.topic())
                                .setPartitionResult(partitions));
                    }
                }
                return new ElectLeadersResponseData().setErrorCode(code).setReplicaElectionResults(topics);
            }
            case ALTER_REPLICA_LOG_DIRS -> {
                List<AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult> topics = new ArrayList<>();
                for (AlterReplicaLogDirsRequestData.AlterReplicaLogDir dir
                        : ((AlterReplicaLogDirsRequestData) request).dirs()) {
                    for (AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic topic : dir.topics()) {
                        List<AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult> partitions =
                                new ArrayList<>();
                        topic.partitions().forEach(partition -> partitions.add(new AlterReplicaLogDirsResponseData
                                .AlterReplicaLogDirPartitionResult().setPartitionIndex(partition).setErrorCode(code)));
                        topics.add(new AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult()
                                .setTopicName(topic.name()).setPartitions(partitions));
                    }
                }
                return new AlterReplicaLogDirsResponseData().setResults(topics);
            }
            default -> {
                return withTopLevelError(api.newResponse(), code);
            }
        }
    }

    /** The response with its top-level error code set, or null when it has none. */
    private static Message withTopLevelError(Message response, short code) {
        try {
            Method setter = response.getClass().getMethod("setErrorCode", short.class);
            setter.invoke(response, code);
            return response;
        } catch (NoSuchMethodException e) {
            return null;
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot set the error code of " + response.getClass().getSimpleName(), e);
        }
    }
}
