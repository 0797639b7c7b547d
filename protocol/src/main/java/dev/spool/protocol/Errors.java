package dev.spool.protocol;

/**
 * The protocol's error codes that Spool answers with, by their Kafka names. Codes and meanings are
 * fixed by the protocol guide; add a constant when a handler first needs it. Thread-safe.
 */
public enum Errors {
    UNKNOWN_SERVER_ERROR(-1),
    NONE(0),
    OFFSET_OUT_OF_RANGE(1),
    CORRUPT_MESSAGE(2),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    INVALID_FETCH_SIZE(4),
    LEADER_NOT_AVAILABLE(5),
    NOT_LEADER_OR_FOLLOWER(6),
    REQUEST_TIMED_OUT(7),
    REPLICA_NOT_AVAILABLE(9),
    MESSAGE_TOO_LARGE(10),
    OFFSET_METADATA_TOO_LARGE(12),
    COORDINATOR_LOAD_IN_PROGRESS(14),
    COORDINATOR_NOT_AVAILABLE(15),
    NOT_COORDINATOR(16),
    INVALID_TOPIC_EXCEPTION(17),
    RECORD_LIST_TOO_LARGE(18),
    NOT_ENOUGH_REPLICAS(19),
    NOT_ENOUGH_REPLICAS_AFTER_APPEND(20),
    INVALID_REQUIRED_ACKS(21),
    ILLEGAL_GENERATION(22),
    INCONSISTENT_GROUP_PROTOCOL(23),
    INVALID_GROUP_ID(24),
    UNKNOWN_MEMBER_ID(25),
    INVALID_SESSION_TIMEOUT(26),
    REBALANCE_IN_PROGRESS(27),
    INVALID_TIMESTAMP(32),
    UNSUPPORTED_VERSION(35),
    TOPIC_ALREADY_EXISTS(36),
    INVALID_PARTITIONS(37),
    INVALID_REPLICATION_FACTOR(38),
    INVALID_REPLICA_ASSIGNMENT(39),
    INVALID_CONFIG(40),
    NOT_CONTROLLER(41),
    INVALID_REQUEST(42),
    UNSUPPORTED_FOR_MESSAGE_FORMAT(43),
    POLICY_VIOLATION(44),
    OUT_OF_ORDER_SEQUENCE_NUMBER(45),
    INVALID_PRODUCER_EPOCH(47),
    INVALID_TXN_STATE(48),
    KAFKA_STORAGE_ERROR(56),
    LOG_DIR_NOT_FOUND(57),
    UNKNOWN_PRODUCER_ID(59),
    NON_EMPTY_GROUP(68),
    GROUP_ID_NOT_FOUND(69),
    FETCH_SESSION_ID_NOT_FOUND(70),
    INVALID_FETCH_SESSION_EPOCH(71),
    FENCED_LEADER_EPOCH(74),
    UNKNOWN_LEADER_EPOCH(75),
    UNSUPPORTED_COMPRESSION_TYPE(76),
    STALE_BROKER_EPOCH(77),
    MEMBER_ID_REQUIRED(79),
    PREFERRED_LEADER_NOT_AVAILABLE(80),
    GROUP_MAX_SIZE_REACHED(81),
    FENCED_INSTANCE_ID(82),
    ELIGIBLE_LEADERS_NOT_AVAILABLE(83),
    ELECTION_NOT_NEEDED(84),
    NO_REASSIGNMENT_IN_PROGRESS(85),
    GROUP_SUBSCRIBED_TO_TOPIC(86),
    INVALID_RECORD(87),
    PRODUCER_FENCED(90),
    INVALID_UPDATE_VERSION(95),
    SNAPSHOT_NOT_FOUND(98),
    POSITION_OUT_OF_RANGE(99),
    UNKNOWN_TOPIC_ID(100),
    DUPLICATE_BROKER_REGISTRATION(101),
    BROKER_ID_NOT_REGISTERED(102),
    INCONSISTENT_CLUSTER_ID(104),
    FETCH_SESSION_TOPIC_ID_ERROR(106),
    INELIGIBLE_REPLICA(107),
    NEW_LEADER_ELECTED(108),
    MISMATCHED_ENDPOINT_TYPE(114),
    DUPLICATE_VOTER(126),
    VOTER_NOT_FOUND(127);

    private final short code;

    Errors(int code) {
        this.code = (short) code;
    }

    public short code() {
        return code;
    }

    /** The name of error {@code code}, or "error CODE" for a code no constant has. For logs. */
    public static String nameOf(short code) {
        Errors error = forCode(code);
        return error != null ? error.name() : "error " + code;
    }

    /** The constant of error {@code code}; null for a code none has. */
    public static Errors forCode(short code) {
        for (Errors error : values()) {
            if (error.code == code) {
                return error;
            }
        }
        return null;
    }
}
