package dev.spool.broker.cli;

import dev.spool.broker.cluster.MetaProperties;
import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.config.ConfigException;
import dev.spool.broker.config.Endpoint;
import dev.spool.broker.quorum.QuorumBootstrap;
import dev.spool.broker.quorum.QuorumVoter;
import dev.spool.protocol.types.Uuid;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): {@code spool format}, Kafka's {@code kafka-storage format} for
 * Spool: writes a node's {@code meta.properties} (cluster id, node id, directory id) and, for a controller of a
 * dynamic quorum (KIP-853: {@code controller.quorum.bootstrap.servers}, no {@code controller.quorum.voters}), the
 * voters its quorum starts with: this controller alone ({@code --standalone}), a list
 * ({@code --initial-controllers}), or none ({@code --no-initial-controllers}: it waits to be added with
 * {@code kafka-metadata-quorum add-controller}). Other nodes need no format step (they create meta.properties at
 * their first start), but may take one. An already formatted directory is refused unless
 * {@code --ignore-formatted}.
 */
@Command(name = "format", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Format a node's log directory, as kafka-storage format does.",
            "A controller of a dynamic quorum (controller.quorum.bootstrap.servers without controller.quorum.voters) "
                    + "needs it once, before its first start."})
public final class FormatCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    SettingsOptions settings;

    @Option(names = {"--cluster-id", "-t"}, paramLabel = "ID", description = "The cluster id (default: cluster.id).")
    String clusterId;

    @Option(names = {"--ignore-formatted", "-g"}, description = "Leave an already formatted directory as it is.")
    boolean ignoreFormatted;

    @ArgGroup(exclusive = true)
    InitialVoters initialVoters;

    /** How a dynamic quorum's first voters are given: at most one of the three. */
    static final class InitialVoters {
        @Option(names = {"--standalone", "-s"}, description = "This controller is the quorum's only voter at first.")
        boolean standalone;

        @Option(names = {"--initial-controllers", "-I"}, paramLabel = "ID@HOST:PORT:DIRECTORY_ID,...",
                description = "The quorum's first voters (the same list on each of them).")
        String initialControllers;

        @Option(names = {"--no-initial-controllers", "-N"},
                description = "This controller joins a running quorum once added with add-controller.")
        boolean none;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return format(out);
        } catch (CommandLine.ParameterException e) {
            throw e;
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("spool format: " + e.getMessage());
            err.flush();
            return SpoolCommand.USAGE_ERROR;
        } catch (IOException e) {
            err.println("spool format: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    private int format(PrintWriter out) throws IOException {
        Map<String, String> properties = settings.properties();
        if (clusterId != null) {
            properties.put(BrokerConfig.CLUSTER_ID.name(), clusterId);
        }
        BrokerConfig config = new BrokerConfig(properties);
        String cluster = config.get(BrokerConfig.CLUSTER_ID).trim();
        if (cluster.isEmpty()) {
            throw new ConfigException("the cluster id is missing: give --cluster-id (e.g. from kafka-storage "
                    + "random-uuid) or set " + BrokerConfig.CLUSTER_ID.name());
        }
        try {
            Uuid.fromString(cluster); // a typo fails here, not at the first start
        } catch (IllegalArgumentException e) {
            throw new ConfigException("cluster id '" + cluster + "' is not a Kafka cluster id (a base64url UUID of 22 "
                    + "characters, e.g. from kafka-storage random-uuid)");
        }
        boolean controller = config.cluster().roles().isController();
        boolean staticVoters = !config.get(BrokerConfig.CONTROLLER_QUORUM_VOTERS).isBlank();
        if (initialVoters != null && staticVoters) {
            throw new ConfigException("You cannot specify " + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name()
                    + " and format the node with --initial-controllers or --standalone. If you want to use dynamic "
                    + "quorum, please remove " + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + " and specify "
                    + BrokerConfig.CONTROLLER_QUORUM_BOOTSTRAP_SERVERS.name() + " instead.");
        }
        if (initialVoters != null && !controller) {
            throw new ConfigException("--standalone, --initial-controllers and --no-initial-controllers format a "
                    + "controller, but " + BrokerConfig.PROCESS_ROLES.name() + " has no controller role");
        }
        if (initialVoters == null && controller && !staticVoters) {
            throw new ConfigException("Because " + BrokerConfig.CONTROLLER_QUORUM_VOTERS.name() + " is not set on this "
                    + "controller, you must specify one of the following: --standalone, --initial-controllers, or "
                    + "--no-initial-controllers.");
        }
        Path logDir = config.logDirs().get(0);
        if (MetaProperties.existsIn(logDir)) {
            if (ignoreFormatted) {
                out.println("Log directory " + logDir + " is already formatted: left as it is.");
                out.flush();
                return 0;
            }
            throw new IOException("Log directory " + logDir + " is already formatted. Use --ignore-formatted to "
                    + "leave it as it is.");
        }
        List<QuorumVoter> voters = initialVoters == null ? null : firstVoters(config);
        Uuid directoryId = voters == null ? Uuid.randomUuid() : voters.stream()
                .filter(voter -> voter.nodeId() == config.nodeId()).map(QuorumVoter::directoryId).findFirst()
                .orElseGet(Uuid::randomUuid);
        if (voters != null) {
            // Written first: meta.properties is what marks the directory formatted.
            new QuorumBootstrap(voters).writeTo(Files.createDirectories(logDir));
        }
        new MetaProperties(cluster, config.nodeId(), directoryId.toString()).writeTo(logDir);
        out.println("Formatting " + (voters == null ? "metadata directory " : voters.isEmpty()
                ? "dynamic metadata directory " : "dynamic metadata voter directory ") + logDir + " of cluster "
                + cluster + " (node.id " + config.nodeId() + ", directory.id " + directoryId + ")"
                + (voters == null || voters.isEmpty() ? "." : " with initial controllers " + String.join(",",
                        voters.stream().map(QuorumVoter::initialControllerEntry).toList()) + "."));
        out.flush();
        return 0;
    }

    /** The dynamic quorum's first voters, at their controller listeners. */
    private List<QuorumVoter> firstVoters(BrokerConfig config) {
        if (initialVoters.none) {
            return List.of();
        }
        if (initialVoters.standalone) {
            Endpoint listener = config.cluster().controllerEndpoint();
            if (listener == null) {
                throw new ConfigException("--standalone needs this controller's listener: set "
                        + BrokerConfig.CONTROLLER_LISTENER_NAMES.name() + " and " + BrokerConfig.LISTENERS.name());
            }
            return List.of(new QuorumVoter(config.nodeId(), listener.host(), listener.port(), Uuid.randomUuid()));
        }
        return QuorumVoter.parseInitialControllers(initialVoters.initialControllers);
    }
}
