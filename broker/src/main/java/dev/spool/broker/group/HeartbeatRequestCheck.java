package dev.spool.broker.group;

import dev.spool.protocol.message.ConsumerGroupHeartbeatRequestData;

/** What makes a ConsumerGroupHeartbeat request invalid (INVALID_REQUEST), in Kafka's words. Stateless. */
final class HeartbeatRequestCheck {

    private HeartbeatRequestCheck() {
    }

    /** Why the request is invalid, or null if it is not. */
    static String problem(ConsumerGroupHeartbeatRequestData request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return "GroupId can't be empty.";
        }
        if (request.instanceId() != null && request.instanceId().isEmpty()) {
            return "InstanceId can't be empty.";
        }
        if (request.rackId() != null && request.rackId().isEmpty()) {
            return "RackId can't be empty.";
        }
        if (request.memberId() == null || request.memberId().isEmpty()) {
            return "MemberId can't be empty.";
        }
        int epoch = request.memberEpoch();
        if (epoch == 0) {
            if (request.rebalanceTimeoutMs() == -1) {
                return "RebalanceTimeoutMs must be provided in first request.";
            }
            if (request.topicPartitions() == null || !request.topicPartitions().isEmpty()) {
                return "TopicPartitions must be empty when (re-)joining.";
            }
            if (request.subscribedTopicNames() == null && request.subscribedTopicRegex() == null) {
                return "SubscribedTopicNames or SubscribedTopicRegex must be set in first request.";
            }
        } else if (epoch == ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH && request.instanceId() == null) {
            return "InstanceId can't be null.";
        } else if (epoch < ConsumerGroupHeartbeats.STATIC_LEAVE_EPOCH) {
            return "MemberEpoch is invalid.";
        }
        return null;
    }
}
