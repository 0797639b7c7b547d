package dev.spool.broker.quorum;

import dev.spool.protocol.types.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One voter of the metadata quorum: its node id, the address it listens on (its controller listener, or its Raft
 * server's, as the context says) and the {@code directory.id} of its metadata log dir. Voters named by
 * {@code controller.quorum.voters} (Kafka's {@code id@host:port}, a static quorum) have the zero directory id; those
 * of a dynamic quorum (KIP-853) have their own, so that a voter whose disk was replaced is another voter. Immutable.
 */
public record QuorumVoter(int nodeId, String host, int port, Uuid directoryId) {

    /** A voter of a static quorum: no directory id. */
    public QuorumVoter(int nodeId, String host, int port) {
        this(nodeId, host, port, Uuid.ZERO_UUID);
    }

    /** Parses Kafka's {@code 1@host:port,2@host:port,...}; an error names the entry it cannot read. */
    public static List<QuorumVoter> parseAll(String voters) {
        return parseAll(voters, "controller.quorum.voters", false);
    }

    /**
     * Parses Kafka's {@code --initial-controllers} list, {@code 1@host:port:directoryId,...}; an error names the
     * entry it cannot read.
     */
    public static List<QuorumVoter> parseInitialControllers(String controllers) {
        return parseAll(controllers, "--initial-controllers", true);
    }

    private static List<QuorumVoter> parseAll(String voters, String what, boolean withDirectoryIds) {
        List<QuorumVoter> parsed = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        String form = withDirectoryIds ? "id@host:port:directoryId" : "id@host:port";
        for (String entry : voters.split(",")) {
            String trimmed = entry.trim();
            Uuid directoryId = Uuid.ZERO_UUID;
            String address = trimmed;
            if (withDirectoryIds) {
                int lastColon = trimmed.lastIndexOf(':');
                if (lastColon < 0) {
                    throw new IllegalArgumentException(what + " entry '" + trimmed + "' is not of the form " + form);
                }
                try {
                    directoryId = Uuid.fromString(trimmed.substring(lastColon + 1));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(what + " entry '" + trimmed + "' has no valid directory id", e);
                }
                address = trimmed.substring(0, lastColon);
            }
            int at = address.indexOf('@');
            int colon = address.lastIndexOf(':');
            if (at <= 0 || colon <= at + 1 || colon == address.length() - 1) {
                throw new IllegalArgumentException(what + " entry '" + trimmed + "' is not of the form " + form);
            }
            try {
                QuorumVoter voter = new QuorumVoter(Integer.parseInt(address.substring(0, at)),
                        address.substring(at + 1, colon), Integer.parseInt(address.substring(colon + 1)), directoryId);
                if (voter.nodeId < 0 || voter.port <= 0 || voter.port > 65535) {
                    throw new NumberFormatException("out of range");
                }
                if (!ids.add(voter.nodeId)) {
                    throw new IllegalArgumentException(what + " names node " + voter.nodeId + " twice");
                }
                parsed.add(voter);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(what + " entry '" + trimmed + "' has no valid node id or port", e);
            }
        }
        return List.copyOf(parsed);
    }

    /** The same voter at {@code port}. */
    public QuorumVoter atPort(int otherPort) {
        return new QuorumVoter(nodeId, host, otherPort, directoryId);
    }

    /** Kafka's {@code id@host:port:directoryId} for this voter (the --initial-controllers syntax). */
    public String initialControllerEntry() {
        return nodeId + "@" + host + ":" + port + ":" + directoryId;
    }

    /** The address as Ratis takes it. */
    String address() {
        return host + ":" + port;
    }
}
