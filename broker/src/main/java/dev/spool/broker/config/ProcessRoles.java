package dev.spool.broker.config;

import java.util.Set;
import java.util.TreeSet;

/**
 * What a node runs, as Kafka's {@code process.roles} names it: a broker (clients' partitions), a controller
 * (a voter of the metadata quorum), or both at once. Immutable.
 */
public enum ProcessRoles {

    BROKER(true, false), CONTROLLER(false, true), COMBINED(true, true);

    private final boolean broker;
    private final boolean controller;

    ProcessRoles(boolean broker, boolean controller) {
        this.broker = broker;
        this.controller = controller;
    }

    /** Parses {@code broker}, {@code controller} or both, in any order; unset means both (one node). */
    static ProcessRoles parse(String roles) {
        if (roles.isBlank()) {
            return COMBINED;
        }
        Set<String> named = new TreeSet<>();
        for (String role : roles.split(",")) {
            named.add(role.trim());
        }
        if (named.equals(Set.of("broker"))) {
            return BROKER;
        }
        if (named.equals(Set.of("controller"))) {
            return CONTROLLER;
        }
        if (named.equals(Set.of("broker", "controller"))) {
            return COMBINED;
        }
        throw new ConfigException("invalid value '" + roles + "' for " + BrokerConfig.PROCESS_ROLES.name()
                + ": must be broker, controller, or broker,controller");
    }

    /** Whether this node hosts partitions and registers with the controller as a broker. */
    public boolean isBroker() {
        return broker;
    }

    /** Whether this node is a voter of the metadata quorum. */
    public boolean isController() {
        return controller;
    }
}
