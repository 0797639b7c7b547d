package dev.spool.broker.group;

import dev.spool.protocol.message.ConsumerProtocolAssignmentData;
import dev.spool.protocol.message.ConsumerProtocolSubscriptionData;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.MessageParseException;
import dev.spool.protocol.types.ProtocolReader;
import dev.spool.protocol.types.Uuid;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The classic consumer protocol's embedded bytes (a version, then Kafka's ConsumerProtocolSubscription or
 * ConsumerProtocolAssignment at that version), for classic members of a consumer group: what a member subscribes
 * to and owns, read from its JoinGroup metadata, and its assignment, written for its SyncGroup. A version newer than
 * Spool knows is read as the newest it knows (later versions only add fields). Stateless and thread-safe.
 */
final class ConsumerProtocolBytes {

    private ConsumerProtocolBytes() {
    }

    /** The subscription in a member's protocol metadata, or null if the bytes are not one. */
    static ConsumerProtocolSubscriptionData subscription(byte[] metadata) {
        if (metadata == null) {
            return null;
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(metadata);
            short version = (short) Math.min(buffer.getShort(), ConsumerProtocolSubscriptionData.HIGHEST_SUPPORTED_VERSION);
            return new ConsumerProtocolSubscriptionData(new ProtocolReader(buffer), version);
        } catch (BufferUnderflowException | MessageParseException | IllegalArgumentException
                 | IndexOutOfBoundsException | NegativeArraySizeException e) {
            return null;
        }
    }

    /** The partitions in a member's classic assignment, by topic name (empty if there is none or it is unreadable). */
    static Map<String, List<Integer>> assignment(byte[] assignment) {
        if (assignment == null || assignment.length == 0) {
            return Map.of();
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(assignment);
            short version = (short) Math.min(buffer.getShort(), ConsumerProtocolAssignmentData.HIGHEST_SUPPORTED_VERSION);
            ConsumerProtocolAssignmentData data = new ConsumerProtocolAssignmentData(new ProtocolReader(buffer), version);
            Map<String, List<Integer>> partitions = new LinkedHashMap<>();
            data.assignedPartitions().forEach(topic -> partitions.put(topic.topic(), topic.partitions()));
            return partitions;
        } catch (BufferUnderflowException | MessageParseException | IllegalArgumentException
                 | IndexOutOfBoundsException | NegativeArraySizeException e) {
            return Map.of();
        }
    }

    /** The member's partitions as a classic assignment (version 0, no user data), topics named by {@code names}. */
    static byte[] assignment(PartitionAssignment partitions, Map<Uuid, String> names) {
        List<ConsumerProtocolAssignmentData.TopicPartition> topics = new ArrayList<>();
        for (Uuid topicId : partitions.topicIds()) {
            String name = names.get(topicId);
            if (name != null) {
                topics.add(new ConsumerProtocolAssignmentData.TopicPartition().setTopic(name)
                        .setPartitions(new ArrayList<>(partitions.partitions(topicId))));
            }
        }
        ConsumerProtocolAssignmentData data = new ConsumerProtocolAssignmentData().setAssignedPartitions(topics)
                .setUserData(null);
        ByteBuffer body = ByteBufferWriter.serialize(data, (short) 0);
        ByteBuffer bytes = ByteBuffer.allocate(2 + body.remaining()).putShort((short) 0).put(body);
        return bytes.array();
    }
}
