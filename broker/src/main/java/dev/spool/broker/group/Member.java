package dev.spool.broker.group;

import dev.spool.protocol.message.JoinGroupResponseData;
import dev.spool.protocol.message.SyncGroupResponseData;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A member of a classic group: who it is, its timeouts, the protocols it supports, its assignment
 * and, while it waits, its parked JoinGroup or SyncGroup answer. Not thread-safe: owned by the
 * group coordinator thread.
 */
final class Member {

    static final byte[] NO_ASSIGNMENT = new byte[0];

    private final String memberId;
    private final String groupInstanceId;
    private String clientId;
    private String clientHost;
    private int rebalanceTimeoutMs;
    private int sessionTimeoutMs;
    private List<MemberProtocol> protocols;
    private byte[] assignment = NO_ASSIGNMENT;
    private CompletableFuture<JoinGroupResponseData> awaitingJoin;
    private CompletableFuture<SyncGroupResponseData> awaitingSync;

    Member(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
           int sessionTimeoutMs, List<MemberProtocol> protocols) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocols = List.copyOf(protocols);
    }

    String memberId() {
        return memberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    List<MemberProtocol> protocols() {
        return protocols;
    }

    /** Takes the client's latest join: its timeouts and protocols. */
    void update(String newClientId, String newClientHost, int newRebalanceTimeoutMs, int newSessionTimeoutMs,
                List<MemberProtocol> newProtocols) {
        this.clientId = newClientId;
        this.clientHost = newClientHost;
        this.rebalanceTimeoutMs = newRebalanceTimeoutMs;
        this.sessionTimeoutMs = newSessionTimeoutMs;
        this.protocols = List.copyOf(newProtocols);
    }

    /** Whether {@code other} lists the same protocols with the same metadata, in the same order. */
    boolean sameProtocols(List<MemberProtocol> other) {
        if (other.size() != protocols.size()) {
            return false;
        }
        for (int i = 0; i < other.size(); i++) {
            if (!other.get(i).name().equals(protocols.get(i).name())
                    || !java.util.Arrays.equals(other.get(i).metadata(), protocols.get(i).metadata())) {
                return false;
            }
        }
        return true;
    }

    /** The metadata this member gave for {@code protocol}, or null if it does not support it. */
    byte[] metadata(String protocol) {
        for (MemberProtocol candidate : protocols) {
            if (candidate.name().equals(protocol)) {
                return candidate.metadata();
            }
        }
        return null;
    }

    byte[] assignment() {
        return assignment;
    }

    void setAssignment(byte[] newAssignment) {
        this.assignment = newAssignment == null ? NO_ASSIGNMENT : newAssignment;
    }

    CompletableFuture<JoinGroupResponseData> awaitingJoin() {
        return awaitingJoin;
    }

    void setAwaitingJoin(CompletableFuture<JoinGroupResponseData> future) {
        this.awaitingJoin = future;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    CompletableFuture<SyncGroupResponseData> awaitingSync() {
        return awaitingSync;
    }

    void setAwaitingSync(CompletableFuture<SyncGroupResponseData> future) {
        this.awaitingSync = future;
    }

    /** Completes and forgets the parked JoinGroup answer, if any. */
    void completeJoin(JoinGroupResponseData response) {
        CompletableFuture<JoinGroupResponseData> future = awaitingJoin;
        awaitingJoin = null;
        if (future != null) {
            future.complete(response);
        }
    }

    /** Completes and forgets the parked SyncGroup answer, if any. */
    void completeSync(SyncGroupResponseData response) {
        CompletableFuture<SyncGroupResponseData> future = awaitingSync;
        awaitingSync = null;
        if (future != null) {
            future.complete(response);
        }
    }

    @Override
    public String toString() {
        return "Member(" + memberId + (groupInstanceId == null ? "" : ", instance " + groupInstanceId) + ")";
    }
}
