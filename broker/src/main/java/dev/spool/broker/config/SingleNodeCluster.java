package dev.spool.broker.config;

import dev.spool.broker.quorum.QuorumVoter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kafka's KRaft settings as far as Spool runs them today: one node that is broker and controller at once,
 * its quorum itself. A configuration for several nodes (other voters, a broker or a controller alone) stops
 * start-up naming the setting: ignored, each node would start as a cluster of its own, and the operator's
 * three-node cluster would be three clusters that never share a record. Stateless.
 */
final class SingleNodeCluster {

    static final String PROCESS_ROLES = "process.roles";
    static final String QUORUM_VOTERS = "controller.quorum.voters";
    static final String QUORUM_BOOTSTRAP_SERVERS = "controller.quorum.bootstrap.servers";
    private static final String NOT_YET = "Spool does not run several nodes as one cluster yet; one node is broker "
            + "and controller at once";

    private SingleNodeCluster() {
    }

    /** Refuses (ConfigException) any KRaft setting that asks for more than this one node. */
    static void require(Map<String, String> properties, int nodeId) {
        String roles = properties.get(PROCESS_ROLES);
        if (roles != null && !roles.isBlank()) {
            Set<String> named = new TreeSet<>();
            for (String role : roles.split(",")) {
                named.add(role.trim());
            }
            if (!named.equals(Set.of("broker", "controller"))) {
                throw new ConfigException(PROCESS_ROLES + "=" + roles.trim() + " is not supported: " + NOT_YET
                        + " (" + PROCESS_ROLES + "=broker,controller)");
            }
        }
        String voters = properties.get(QUORUM_VOTERS);
        if (voters != null && !voters.isBlank()) {
            List<QuorumVoter> parsed;
            try {
                parsed = QuorumVoter.parseAll(voters);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
            if (parsed.size() != 1 || parsed.get(0).nodeId() != nodeId) {
                throw new ConfigException(QUORUM_VOTERS + "=" + voters.trim() + " is not supported: " + NOT_YET
                        + ", the only voter of its quorum (" + QUORUM_VOTERS + "=" + nodeId + "@host:port)");
            }
        }
        String bootstrap = properties.get(QUORUM_BOOTSTRAP_SERVERS);
        if (bootstrap != null && bootstrap.contains(",")) {
            throw new ConfigException(QUORUM_BOOTSTRAP_SERVERS + "=" + bootstrap.trim() + " is not supported: "
                    + NOT_YET + ", its quorum reached at one address");
        }
    }
}
