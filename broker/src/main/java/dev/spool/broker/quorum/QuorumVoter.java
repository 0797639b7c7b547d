package dev.spool.broker.quorum;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One voter of the metadata quorum as {@code controller.quorum.voters} names it ({@code id@host:port}, Kafka's
 * syntax): its node id and the address its Raft server listens on. Immutable.
 */
public record QuorumVoter(int nodeId, String host, int port) {

    /** Parses Kafka's {@code 1@host:port,2@host:port,...}; an error names the entry it cannot read. */
    public static List<QuorumVoter> parseAll(String voters) {
        List<QuorumVoter> parsed = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        for (String entry : voters.split(",")) {
            String trimmed = entry.trim();
            int at = trimmed.indexOf('@');
            int colon = trimmed.lastIndexOf(':');
            if (at <= 0 || colon <= at + 1 || colon == trimmed.length() - 1) {
                throw new IllegalArgumentException("controller.quorum.voters entry '" + trimmed
                        + "' is not of the form id@host:port");
            }
            try {
                QuorumVoter voter = new QuorumVoter(Integer.parseInt(trimmed.substring(0, at)),
                        trimmed.substring(at + 1, colon), Integer.parseInt(trimmed.substring(colon + 1)));
                if (voter.nodeId < 0 || voter.port <= 0 || voter.port > 65535) {
                    throw new NumberFormatException("out of range");
                }
                if (!ids.add(voter.nodeId)) {
                    throw new IllegalArgumentException("controller.quorum.voters names node " + voter.nodeId + " twice");
                }
                parsed.add(voter);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("controller.quorum.voters entry '" + trimmed
                        + "' has no valid node id or port", e);
            }
        }
        return List.copyOf(parsed);
    }

    /** The address as Ratis takes it. */
    String address() {
        return host + ":" + port;
    }
}
