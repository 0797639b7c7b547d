package dev.spool.broker.config;

import dev.spool.broker.quorum.QuorumVoter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kafka's KRaft settings as Spool runs them: either one node, broker and controller at once with its metadata in
 * a local log (no voters, or itself the only one), or a cluster whose voters (several in
 * {@code controller.quorum.voters}) each run broker and controller, the metadata replicated by Raft, and whose
 * broker-only nodes ({@code process.roles=broker}) fetch it from them. What Spool cannot run yet
 * (controller-only nodes, a quorum found through several bootstrap servers) stops start-up naming the setting:
 * ignored, each node would start as a cluster of its own. Immutable.
 */
public record ClusterSettings(int nodeId, boolean brokerOnly, List<QuorumVoter> voters,
                              List<QuorumVoter> bootstrapServers, List<String> controllerListenerNames,
                              int raftPortOffset, String clusterId, int sessionTimeoutMs, int heartbeatIntervalMs) {

    private static final String BOTH_ROLES = "broker,controller";

    public ClusterSettings {
        voters = List.copyOf(voters);
        bootstrapServers = List.copyOf(bootstrapServers);
        controllerListenerNames = List.copyOf(controllerListenerNames);
    }

    /** The settings of {@code config}, checked; a {@link ConfigException} names what cannot run. */
    static ClusterSettings of(BrokerConfig config) {
        int nodeId = config.nodeId();
        String roles = config.get(BrokerConfig.PROCESS_ROLES).trim();
        String votersText = config.get(BrokerConfig.CONTROLLER_QUORUM_VOTERS).trim();
        List<QuorumVoter> voters;
        try {
            voters = votersText.isEmpty() ? List.of() : QuorumVoter.parseAll(votersText);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        Set<String> roleSet = roles.isEmpty() ? Set.of("broker", "controller") : parseRoles(roles);
        boolean brokerOnly = roleSet.equals(Set.of("broker"));
        if (!brokerOnly && !roleSet.equals(Set.of("broker", "controller"))) {
            throw new ConfigException(BrokerConfig.PROCESS_ROLES.name() + "=" + roles + " is not supported: Spool runs "
                    + "a node as broker and controller at once (" + BrokerConfig.PROCESS_ROLES.name() + "="
                    + BOTH_ROLES + ") or as a broker only; controller-only nodes are not supported yet");
        }
        String bootstrapText = config.get(BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS).trim();
        if (bootstrapText.contains(",")) {
            throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name() + "=" + bootstrapText
                    + " is not supported: Spool finds a quorum of several controllers through "
                    + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + ", or one bootstrap controller");
        }
        List<QuorumVoter> bootstrap = bootstrapText.isEmpty() ? List.of() : List.of(parseServer(bootstrapText));
        boolean cluster = brokerOnly || voters.stream().anyMatch(voter -> voter.nodeId() != nodeId);
        List<String> controllerListeners = names(config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES));
        boolean namedVoter = voters.stream().anyMatch(candidate -> candidate.nodeId() == nodeId);
        if (brokerOnly) {
            if (namedVoter) {
                throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + "=" + votersText + " names this "
                        + "node (node.id=" + nodeId + "), whose " + BrokerConfig.PROCESS_ROLES.name()
                        + "=broker has no controller to vote with");
            }
            if (voters.isEmpty() && bootstrap.isEmpty()) {
                throw new ConfigException(BrokerConfig.PROCESS_ROLES.name() + "=broker needs the controllers: set "
                        + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + " or "
                        + BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name());
            }
        } else if (cluster) {
            if (!namedVoter) {
                throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + "=" + votersText
                        + " does not name this node (node.id=" + nodeId + "), which is broker and controller: it must "
                        + "be one of the voters");
            }
            requireControllerListener(config, controllerListeners);
        }
        if (cluster && config.get(BrokerConfig.CLUSTER_ID).isBlank()) {
            throw new ConfigException(BrokerConfig.CLUSTER_ID.name() + " must be set on every node of a cluster "
                    + "(several voters, or a broker-only node): every node needs the same id (e.g. one from "
                    + "kafka-storage random-uuid)");
        }
        int offset = config.get(BrokerConfig.CONTROLLER_QUORUM_RAFT_PORT_OFFSET);
        for (QuorumVoter voter : voters) {
            if (voter.port() + offset > 65535) {
                throw new ConfigException("controller.quorum.voters port " + voter.port() + " plus "
                        + BrokerConfig.CONTROLLER_QUORUM_RAFT_PORT_OFFSET.name() + " " + offset + " is not a port");
            }
        }
        return new ClusterSettings(nodeId, brokerOnly, cluster ? voters : List.of(), cluster ? bootstrap : List.of(),
                controllerListeners, offset,
                config.get(BrokerConfig.CLUSTER_ID).trim(), config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.BROKER_HEARTBEAT_INTERVAL_MS));
    }

    private static void requireControllerListener(BrokerConfig config, List<String> controllerListeners) {
        if (controllerListeners.isEmpty()) {
            throw new ConfigException(BrokerConfig.CONTROLLER_LISTENER_NAMES.name() + " must name the controller's "
                    + "listener when " + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + " names several voters");
        }
        for (Endpoint listener : config.listeners()) {
            if (listener.listenerName().equals(controllerListeners.get(0))) {
                return;
            }
        }
        throw new ConfigException(BrokerConfig.CONTROLLER_LISTENER_NAMES.name() + "=" + controllerListeners.get(0)
                + " is not among " + BrokerConfig.LISTENERS.name() + "=" + config.get(BrokerConfig.LISTENERS));
    }

    /** A bootstrap controller, host:port (its node id unknown: -1). */
    private static QuorumVoter parseServer(String server) {
        int colon = server.lastIndexOf(':');
        try {
            return new QuorumVoter(-1, server.substring(0, colon), Integer.parseInt(server.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name() + " entry '" + server
                    + "' is not of the form host:port");
        }
    }

    private static Set<String> parseRoles(String roles) {
        Set<String> named = new TreeSet<>();
        for (String role : roles.split(",")) {
            named.add(role.trim());
        }
        return named;
    }

    private static List<String> names(String list) {
        List<String> names = new ArrayList<>();
        for (String name : list.split(",")) {
            if (!name.isBlank()) {
                names.add(name.trim());
            }
        }
        return names;
    }

    /** Whether this node is one of several: its metadata is replicated by the Raft quorum of {@link #voters}. */
    public boolean isCluster() {
        return brokerOnly || !voters.isEmpty();
    }

    /** Whether this node is a voter of a cluster's Raft quorum (broker and controller at once). */
    public boolean isVoter() {
        return isCluster() && !brokerOnly;
    }

    /** The controllers a broker-only node fetches metadata from first: the voters, or the bootstrap server. */
    public List<QuorumVoter> controllerBootstrap() {
        return voters.isEmpty() ? bootstrapServers : voters;
    }

    /** Whether {@code listenerName} is a controller listener, which brokers never advertise to clients. */
    public boolean isControllerListener(String listenerName) {
        return controllerListenerNames.contains(listenerName);
    }

    /** The voters at their Raft ports (their controller ports plus the offset). */
    public List<QuorumVoter> raftVoters() {
        List<QuorumVoter> raft = new ArrayList<>(voters.size());
        for (QuorumVoter voter : voters) {
            raft.add(new QuorumVoter(voter.nodeId(), voter.host(), voter.port() + raftPortOffset));
        }
        return raft;
    }

    /** The voter {@code nodeId} at its controller listener, or null when it is no voter. */
    public QuorumVoter voter(int nodeId) {
        for (QuorumVoter voter : voters) {
            if (voter.nodeId() == nodeId) {
                return voter;
            }
        }
        return null;
    }
}
