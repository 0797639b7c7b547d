package dev.spool.broker.config;

import dev.spool.broker.quorum.QuorumBootstrap;
import dev.spool.broker.quorum.QuorumVoter;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka's KRaft settings as Spool runs them: either one node, broker and controller at once with its metadata in
 * a local log (no voters, or itself the only one), or a cluster whose voters ({@code controller.quorum.voters})
 * replicate the metadata by Raft, each a controller only ({@code process.roles=controller}) or broker and controller
 * at once, and whose broker-only nodes ({@code process.roles=broker}) fetch it from them. The voters are either
 * named by {@code controller.quorum.voters} (a static quorum, Kafka's {@code kraft.version} 0) or, for a controller
 * with {@code controller.quorum.bootstrap.servers} only, kept by the quorum itself, which {@code bin/spool format}
 * started and AddRaftVoter / RemoveRaftVoter change (a dynamic quorum, KIP-853, {@code kraft.version} 1). Settings
 * that cannot run stop start-up naming the setting: ignored, each node would start as a cluster of its own.
 * Immutable.
 */
public record ClusterSettings(int nodeId, ProcessRoles roles, List<QuorumVoter> voters,
                              List<QuorumVoter> bootstrapServers, boolean dynamicQuorum,
                              List<String> controllerListenerNames, Endpoint controllerEndpoint, int raftPortOffset,
                              String clusterId, int sessionTimeoutMs, int heartbeatIntervalMs) {

    public ClusterSettings {
        voters = List.copyOf(voters);
        bootstrapServers = List.copyOf(bootstrapServers);
        controllerListenerNames = List.copyOf(controllerListenerNames);
    }

    /** The settings of {@code config}, checked; a {@link ConfigException} names what cannot run. */
    static ClusterSettings of(BrokerConfig config) {
        int nodeId = config.nodeId();
        ProcessRoles roles = ProcessRoles.parse(config.get(BrokerConfig.PROCESS_ROLES));
        String votersText = config.get(BrokerConfig.CONTROLLER_QUORUM_VOTERS).trim();
        List<QuorumVoter> voters;
        try {
            voters = votersText.isEmpty() ? List.of() : QuorumVoter.parseAll(votersText);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        String bootstrapText = config.get(BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS).trim();
        List<QuorumVoter> bootstrap = parseServers(bootstrapText);
        // A single node with Kafka's default settings (one bootstrap server, itself) keeps the local log unless it
        // was formatted for a quorum; a controller-only node, several bootstrap servers or a formatted dir mean one.
        boolean dynamic = roles.isController() && voters.isEmpty() && !bootstrap.isEmpty()
                && (roles == ProcessRoles.CONTROLLER || bootstrap.size() > 1
                        || QuorumBootstrap.existsIn(config.logDirs().get(0)));
        // A controller-only node always has brokers elsewhere: a cluster even when it is the only voter.
        boolean cluster = roles != ProcessRoles.COMBINED || dynamic
                || voters.stream().anyMatch(voter -> voter.nodeId() != nodeId);
        List<String> controllerListeners = names(config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES));
        boolean namedVoter = voters.stream().anyMatch(candidate -> candidate.nodeId() == nodeId);
        Endpoint controllerEndpoint = roles.isController() ? controllerListener(config, controllerListeners) : null;
        if (roles == ProcessRoles.BROKER) {
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
        } else if (dynamic) {
            requireControllerListener(config, controllerListeners, controllerEndpoint);
        } else if (cluster) {
            if (!namedVoter) {
                throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + "=" + votersText
                        + " does not name this node (node.id=" + nodeId + "), whose " + BrokerConfig.PROCESS_ROLES.name()
                        + " include controller: it must be one of the voters");
            }
            requireControllerListener(config, controllerListeners, controllerEndpoint);
        }
        if (cluster && config.get(BrokerConfig.CLUSTER_ID).isBlank()) {
            throw new ConfigException(BrokerConfig.CLUSTER_ID.name() + " must be set on every node of a cluster "
                    + "(several voters, a controller-only or a broker-only node): every node needs the same id (e.g. "
                    + "one from kafka-storage random-uuid)");
        }
        int offset = config.get(BrokerConfig.CONTROLLER_QUORUM_RAFT_PORT_OFFSET);
        for (QuorumVoter voter : voters) {
            if (voter.port() + offset > 65535) {
                throw new ConfigException("controller.quorum.voters port " + voter.port() + " plus "
                        + BrokerConfig.CONTROLLER_QUORUM_RAFT_PORT_OFFSET.name() + " " + offset + " is not a port");
            }
        }
        return new ClusterSettings(nodeId, roles, cluster ? voters : List.of(), cluster ? bootstrap : List.of(),
                dynamic, controllerListeners, controllerEndpoint, offset,
                config.get(BrokerConfig.CLUSTER_ID).trim(), config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS),
                config.get(BrokerConfig.BROKER_HEARTBEAT_INTERVAL_MS));
    }

    /** This controller's listener (its host "localhost" when the listener names none), or null. */
    private static Endpoint controllerListener(BrokerConfig config, List<String> controllerListeners) {
        for (Endpoint listener : config.listeners()) {
            if (!controllerListeners.isEmpty() && listener.listenerName().equals(controllerListeners.get(0))) {
                return listener.host().isBlank()
                        ? new Endpoint(listener.listenerName(), "localhost", listener.port()) : listener;
            }
        }
        return null;
    }

    private static void requireControllerListener(BrokerConfig config, List<String> controllerListeners,
                                                  Endpoint found) {
        if (controllerListeners.isEmpty()) {
            throw new ConfigException(BrokerConfig.CONTROLLER_LISTENER_NAMES.name() + " must name the controller's "
                    + "listener on a controller of a cluster");
        }
        if (found == null) {
            throw new ConfigException(BrokerConfig.CONTROLLER_LISTENER_NAMES.name() + "=" + controllerListeners.get(0)
                    + " is not among " + BrokerConfig.LISTENERS.name() + "=" + config.get(BrokerConfig.LISTENERS));
        }
    }

    /** The bootstrap controllers, {@code host:port,...} (their node ids unknown: -1). */
    private static List<QuorumVoter> parseServers(String servers) {
        List<QuorumVoter> parsed = new ArrayList<>();
        for (String server : names(servers)) {
            parsed.add(parseServer(server));
        }
        return parsed;
    }

    private static QuorumVoter parseServer(String server) {
        int colon = server.lastIndexOf(':');
        try {
            return new QuorumVoter(-1, server.substring(0, colon), Integer.parseInt(server.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new ConfigException(BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name() + " entry '" + server
                    + "' is not of the form host:port");
        }
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
        return roles != ProcessRoles.COMBINED || !voters.isEmpty() || dynamicQuorum;
    }

    /** Whether this node is a voter of a cluster's Raft quorum (a controller, maybe a broker too). */
    public boolean isVoter() {
        return isCluster() && roles.isController();
    }

    /** Whether this node is a broker: it registers with the controller and hosts partitions (not controller-only). */
    public boolean isBroker() {
        return roles.isBroker();
    }

    /** The controllers a broker-only node fetches metadata from first: the voters, or the bootstrap servers. */
    public List<QuorumVoter> controllerBootstrap() {
        return voters.isEmpty() ? bootstrapServers : voters;
    }

    /** Whether {@code listenerName} is a controller listener, which brokers never advertise to clients. */
    public boolean isControllerListener(String listenerName) {
        return controllerListenerNames.contains(listenerName);
    }
}
