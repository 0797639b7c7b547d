package dev.spool.broker.group;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the topics out of a consumer's subscription (the "consumer" protocol's member metadata,
 * Kafka's ConsumerProtocolSubscription v0-3, never flexible):
 *
 * <pre>
 * +---------------+-----------------------+------------------------------------+-----------------
 * | int16 version | int32 topic count     | topics: int16 length + UTF-8 bytes | user data, owned
 * +---------------+-----------------------+------------------------------------+ partitions... (ignored)
 * </pre>
 * Thread-safe.
 */
final class Subscriptions {

    private Subscriptions() {
    }

    /** The topics the group's members subscribe to with the chosen protocol (unreadable metadata: none). */
    static Set<String> topicsOf(ClassicGroup group) {
        Set<String> topics = new HashSet<>();
        for (Member member : group.members()) {
            byte[] metadata = group.protocolName() == null ? null : member.metadata(group.protocolName());
            if (metadata != null) {
                topics.addAll(topics(metadata));
            }
        }
        return topics;
    }

    static Set<String> topics(byte[] subscription) {
        Set<String> topics = new HashSet<>();
        try {
            ByteBuffer buffer = ByteBuffer.wrap(subscription);
            buffer.getShort();
            int count = buffer.getInt();
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[buffer.getShort()];
                buffer.get(name);
                topics.add(new String(name, StandardCharsets.UTF_8));
            }
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            // Not the consumer protocol's layout: no topic can be said to be subscribed to.
            return Set.of();
        }
        return topics;
    }
}
