package dev.spool.broker.api;

import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.ResourceType;

/**
 * What the sender of a request may do, asked where Kafka asks it: per topic by the handlers of Produce, Fetch,
 * Metadata and the like, once per request by {@link ApiAuthorization}. {@link #ALL} without an authorizer.
 */
public interface Access {

    /** The name of the one CLUSTER resource, as Kafka names it. */
    String CLUSTER_NAME = "kafka-cluster";

    Access ALL = new Access() {
        @Override
        public boolean allows(AclOperation operation, ResourceType type, String name) {
            return true;
        }

        @Override
        public boolean allowsAny(AclOperation operation, ResourceType type) {
            return true;
        }
    };

    boolean allows(AclOperation operation, ResourceType type, String name);

    /** Whether the sender may {@code operation} some resource of {@code type} (KIP-679). */
    boolean allowsAny(AclOperation operation, ResourceType type);

    default boolean allowsOnCluster(AclOperation operation) {
        return allows(operation, ResourceType.CLUSTER, CLUSTER_NAME);
    }

    default boolean allowsTopic(AclOperation operation, String topic) {
        return allows(operation, ResourceType.TOPIC, topic);
    }
}
