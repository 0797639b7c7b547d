package dev.spool.broker.config;

import dev.spool.log.LogManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's settings, with Kafka's names and defaults, declared here once. Built from a
 * {@code server.properties} map; unknown names are logged and ignored, as Kafka does. Immutable.
 */
public final class BrokerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfig.class);

    public static final ConfigKey<Integer> NODE_ID = ConfigKey.integer("node.id", 1,
            "The id of this broker in the cluster.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<String> LISTENERS = ConfigKey.list("listeners", "PLAINTEXT://127.0.0.1:9092",
            "Comma-separated NAME://host:port endpoints to listen on; port 0 picks a free port.");
    public static final ConfigKey<String> ADVERTISED_LISTENERS = ConfigKey.list("advertised.listeners", null,
            "Endpoints given to clients in metadata; defaults to listeners (with the bound port).");
    public static final ConfigKey<String> LISTENER_SECURITY_PROTOCOL_MAP = ConfigKey.list(
            "listener.security.protocol.map", ListenerSecurity.DEFAULT_MAP,
            "LISTENER_NAME:SECURITY_PROTOCOL pairs giving each listener's protocol: PLAINTEXT, SSL, SASL_PLAINTEXT or "
                    + "SASL_SSL. A listener that maps to nothing stops start-up. Nodes reach each other's inter-broker "
                    + "and controller listeners with the protocol mapped here.");
    public static final ConfigKey<String> SECURITY_INTER_BROKER_PROTOCOL = ConfigKey.string(
            "security.inter.broker.protocol", "PLAINTEXT",
            "Set, the listener other brokers reach this one on is the one of that name (as Kafka's). Unset, and "
                    + "without inter.broker.listener.name, it is the first listener that is not a controller's (Kafka "
                    + "takes the listener named PLAINTEXT).")
            .validatedBy(ConfigValidator.oneOf("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"));
    public static final ConfigKey<String> INTER_BROKER_LISTENER_NAME = ConfigKey.string("inter.broker.listener.name",
            null, "The listener other brokers reach this one on (replication, transaction markers); it speaks the "
                    + "protocol listener.security.protocol.map gives it, with the listener's ssl.* settings and "
                    + "sasl.mechanism.inter.broker.protocol. Not to be set with security.inter.broker.protocol.");
    public static final ConfigKey<String> AUTHORIZER_CLASS_NAME = ConfigKey.string("authorizer.class.name", "",
            "The authorizer enforcing ACLs: Kafka's org.apache.kafka.metadata.authorizer.StandardAuthorizer (ACLs "
                    + "kept in the metadata log), or empty for none (every client may do everything). Any other "
                    + "class stops start-up rather than serve every client without the access control it asks for.")
            .validatedBy(ConfigValidator.oneOf("", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"));
    public static final ConfigKey<String> SUPER_USERS = ConfigKey.string("super.users", "",
            "Principals (User:name), separated by ';', that may do anything whatever the ACLs say. In a cluster the "
                    + "nodes' own principals must be: User:ANONYMOUS when they speak PLAINTEXT to each other, else the "
                    + "user or certificate name they log in with, as in Kafka.");
    public static final ConfigKey<Boolean> ALLOW_EVERYONE_IF_NO_ACL_FOUND = ConfigKey.bool(
            "allow.everyone.if.no.acl.found", false,
            "Whether a resource no ACL names is open to everyone; by default it is closed to all but super users.");
    public static final ConfigKey<String> LOG_DIRS = ConfigKey.list("log.dirs", null,
            "Comma-separated directories of the partition logs; overrides log.dir.");
    public static final ConfigKey<String> LOG_DIR = ConfigKey.list("log.dir", "./data",
            "The directory of the partition logs when log.dirs is not set.");
    public static final ConfigKey<Integer> SOCKET_REQUEST_MAX_BYTES = ConfigKey.integer("socket.request.max.bytes",
            104857600, "The largest request frame accepted; a larger one closes the connection.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> SOCKET_SEND_BUFFER_BYTES = ConfigKey.integer("socket.send.buffer.bytes",
            102400, "SO_SNDBUF of every client connection; -1 (or 0) leaves the operating system's default, which "
                    + "Linux grows with the connection's traffic.")
            .validatedBy(ConfigValidator.atLeast(-1));
    public static final ConfigKey<Integer> SOCKET_RECEIVE_BUFFER_BYTES = ConfigKey.integer(
            "socket.receive.buffer.bytes", 102400, "SO_RCVBUF of every client connection; -1 (or 0) leaves the "
                    + "operating system's default, which Linux grows with the connection's traffic.")
            .validatedBy(ConfigValidator.atLeast(-1));
    public static final ConfigKey<Integer> NUM_NETWORK_THREADS = ConfigKey.integer("num.network.threads", 0,
            "Network event loop threads; 0 means one per core.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> MAX_CONNECTIONS = ConfigKey.integer("max.connections", Integer.MAX_VALUE,
            "Connections the broker keeps open over all listeners; a connection beyond them is closed when accepted.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> MAX_CONNECTIONS_PER_IP = ConfigKey.integer("max.connections.per.ip",
            Integer.MAX_VALUE, "Connections from one IP address; a connection beyond them is closed when accepted.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> MAX_CONNECTION_CREATION_RATE = ConfigKey.integer(
            "max.connection.creation.rate", Integer.MAX_VALUE, "New connections per second over all listeners but "
                    + "the controller listeners; a connection beyond the rate waits before it is served.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> QUOTA_WINDOW_NUM = ConfigKey.integer("quota.window.num", 11,
            "Samples a client quota's usage is measured over (producer_byte_rate, consumer_byte_rate, "
                    + "request_percentage).").validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> QUOTA_WINDOW_SIZE_SECONDS = ConfigKey.integer("quota.window.size.seconds",
            1, "Length of each sample of a client quota's usage.").validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> CONTROLLER_QUOTA_WINDOW_NUM = ConfigKey.integer(
            "controller.quota.window.num", 11, "Samples the controller_mutation_rate quota is measured over.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS = ConfigKey.integer(
            "controller.quota.window.size.seconds", 1, "Length of each sample of the controller_mutation_rate quota.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> CONNECTIONS_MAX_IDLE_MS = ConfigKey.longValue("connections.max.idle.ms", 600000,
            "A connection that reads and writes nothing for this long is closed.");
    public static final ConfigKey<Integer> QUEUED_MAX_REQUESTS = ConfigKey.integer("queued.max.requests", 500,
            "Requests a connection sent that are read and not yet answered; at the limit the broker stops reading "
                    + "from that connection until answers bring the count back below (Kafka: the request queue "
                    + "between network and request threads; Spool pipelines per connection).")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Boolean> AUTO_CREATE_TOPICS_ENABLE = ConfigKey.bool("auto.create.topics.enable",
            true, "Create a topic that a client asks metadata for when it does not exist.");
    public static final ConfigKey<Integer> NUM_PARTITIONS = ConfigKey.integer("num.partitions", 1,
            "Partitions of a topic created without a partition count.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> DEFAULT_REPLICATION_FACTOR = ConfigKey.integer("default.replication.factor",
            1, "Replication factor of a topic created without one.")
            .validatedBy(ConfigValidator.between(1, Short.MAX_VALUE));
    public static final ConfigKey<Long> LOG_RETENTION_CHECK_INTERVAL_MS = ConfigKey.longValue(
            "log.retention.check.interval.ms", 300000, "How often segments past retention are looked for.")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Boolean> LOG_CLEANER_ENABLE = ConfigKey.bool("log.cleaner.enable", true,
            "Run the log cleaner, which compacts topics whose cleanup.policy includes compact.");
    public static final ConfigKey<Integer> LOG_CLEANER_THREADS = ConfigKey.integer("log.cleaner.threads", 1,
            "Threads compacting logs, each cleaning one log at a time.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> LOG_CLEANER_DEDUPE_BUFFER_SIZE = ConfigKey.longValue(
            "log.cleaner.dedupe.buffer.size", 134217728L,
            "Memory for the cleaners' key-to-offset maps, shared by all threads (24 bytes a key); a dirty section "
                    + "with more keys is cleaned in several passes.")
            .validatedBy(ConfigValidator.atLeast(1024 * 1024));
    public static final ConfigKey<Long> LOG_CLEANER_BACKOFF_MS = ConfigKey.longValue("log.cleaner.backoff.ms", 15000,
            "How long a cleaner thread sleeps when no log needs cleaning.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> NUM_RECOVERY_THREADS_PER_DATA_DIR = ConfigKey.integer(
            "num.recovery.threads.per.data.dir", LogManager.DEFAULT_RECOVERY_THREADS_PER_DATA_DIR,
            "Threads per log dir opening the partitions at start-up, and recovering them after an unclean shutdown.")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Long> METADATA_SNAPSHOT_INTERVAL_RECORDS = ConfigKey.longValue(
            "metadata.log.max.records.between.snapshots", 20000,
            "Metadata records appended after which the metadata image is snapshotted (Spool counts records where "
                    + "Kafka counts bytes, metadata.log.max.record.bytes.between.snapshots).")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Integer> NUM_IO_THREADS = ConfigKey.integer("num.io.threads", 8,
            "Threads for the produce work a network thread leaves to them: compressed batches, a partition's "
                    + "first append (it loads the producer state), appends that roll a segment, start a leader epoch or "
                    + "fsync, and appends to a partition another thread is working on (appends to one partition run one "
                    + "at a time).")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> PRODUCER_ID_EXPIRATION_MS = ConfigKey.longValue("producer.id.expiration.ms",
            86400000, "How long a partition keeps an idle idempotent producer's state after its last batch.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = ConfigKey.longValue(
            "producer.id.expiration.check.interval.ms", 600000, "How often expired producer ids are removed.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS = ConfigKey.integer(
            "max.incremental.fetch.session.cache.slots", 1000,
            "Incremental fetch sessions (KIP-227) the broker keeps; 0 answers every fetch without a session.")
            .validatedBy(ConfigValidator.atLeast(0));

    public static final ConfigKey<Integer> OFFSETS_TOPIC_NUM_PARTITIONS = ConfigKey.integer(
            "offsets.topic.num.partitions", 50, "Partitions of __consumer_offsets, fixed once the topic exists.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> OFFSETS_TOPIC_REPLICATION_FACTOR = ConfigKey.integer(
            "offsets.topic.replication.factor", 3,
            "Replication factor of __consumer_offsets, capped at the live brokers when it is created.")
            .validatedBy(ConfigValidator.between(1, Short.MAX_VALUE));
    public static final ConfigKey<Integer> OFFSETS_TOPIC_SEGMENT_BYTES = ConfigKey.integer(
            "offsets.topic.segment.bytes", 104857600, "segment.bytes of __consumer_offsets.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> OFFSETS_RETENTION_MINUTES = ConfigKey.integer("offsets.retention.minutes",
            10080, "How long the committed offsets of a group that became empty (or of a simple consumer) are kept.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> OFFSETS_RETENTION_CHECK_INTERVAL_MS = ConfigKey.longValue(
            "offsets.retention.check.interval.ms", 600000, "How often expired committed offsets are removed.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> OFFSET_METADATA_MAX_BYTES = ConfigKey.integer("offset.metadata.max.bytes",
            4096, "The longest metadata string a committed offset may carry.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> GROUP_INITIAL_REBALANCE_DELAY_MS = ConfigKey.integer(
            "group.initial.rebalance.delay.ms", 3000,
            "How long the first rebalance of an empty group waits for more members to join.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> GROUP_MIN_SESSION_TIMEOUT_MS = ConfigKey.integer(
            "group.min.session.timeout.ms", 6000, "The smallest session timeout a group member may ask for.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> GROUP_MAX_SESSION_TIMEOUT_MS = ConfigKey.integer(
            "group.max.session.timeout.ms", 1800000, "The largest session timeout a group member may ask for.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> GROUP_MAX_SIZE = ConfigKey.integer("group.max.size", Integer.MAX_VALUE,
            "The most members a classic group may have.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<String> GROUP_COORDINATOR_REBALANCE_PROTOCOLS = ConfigKey.list(
            "group.coordinator.rebalance.protocols", "classic,consumer",
            "The group protocols the coordinator serves: classic (JoinGroup, SyncGroup, Heartbeat) and consumer "
                    + "(KIP-848's ConsumerGroupHeartbeat, for clients with group.protocol=consumer; group.version 1 "
                    + "is finalized while it is served).")
            .validatedBy(ConfigValidator.listOf("classic", "consumer"));
    public static final ConfigKey<Integer> GROUP_CONSUMER_SESSION_TIMEOUT_MS = ConfigKey.integer(
            "group.consumer.session.timeout.ms", 45000,
            "How long a consumer-protocol member may go without a heartbeat before it leaves its group.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS = ConfigKey.integer(
            "group.consumer.heartbeat.interval.ms", 5000, "How often a consumer-protocol member is told to heartbeat.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<String> GROUP_CONSUMER_ASSIGNORS = ConfigKey.list("group.consumer.assignors",
            "uniform,range", "The server-side assignors consumer-protocol members may ask for (group.remote.assignor); "
                    + "the first is used when none asks.")
            .validatedBy(ConfigValidator.listOf("uniform", "range"));
    public static final ConfigKey<Integer> GROUP_CONSUMER_MAX_SIZE = ConfigKey.integer("group.consumer.max.size",
            Integer.MAX_VALUE, "The most members a consumer-protocol group may have.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<String> GROUP_CONSUMER_MIGRATION_POLICY = ConfigKey.string(
            "group.consumer.migration.policy", "bidirectional",
            "Whether a classic group with members becomes a consumer group as a consumer-protocol member joins "
                    + "(upgrade), and back once its last consumer-protocol member leaves (downgrade): disabled, "
                    + "upgrade, downgrade or bidirectional. Empty groups change protocol whatever it says.")
            .validatedBy(ConfigValidator.oneOf("disabled", "upgrade", "downgrade", "bidirectional"));

    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_NUM_PARTITIONS = ConfigKey.integer(
            "transaction.state.log.num.partitions", 50,
            "Partitions of __transaction_state, fixed once the topic exists.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_REPLICATION_FACTOR = ConfigKey.integer(
            "transaction.state.log.replication.factor", 3,
            "Replication factor of __transaction_state, capped at the live brokers when it is created.")
            .validatedBy(ConfigValidator.between(1, Short.MAX_VALUE));
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_MIN_ISR = ConfigKey.integer(
            "transaction.state.log.min.isr", 2, "min.insync.replicas of __transaction_state.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTION_STATE_LOG_SEGMENT_BYTES = ConfigKey.integer(
            "transaction.state.log.segment.bytes", 104857600, "segment.bytes of __transaction_state.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTION_MAX_TIMEOUT_MS = ConfigKey.integer(
            "transaction.max.timeout.ms", 900000,
            "The longest transaction.timeout.ms a producer may ask for (INVALID_TRANSACTION_TIMEOUT above it).")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTIONAL_ID_EXPIRATION_MS = ConfigKey.integer(
            "transactional.id.expiration.ms", 604800000,
            "How long a transactional id with no transaction open is kept after its last use.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS =
            ConfigKey.integer("transaction.abort.timed.out.transaction.cleanup.interval.ms", 10000,
                    "How often transactions open longer than their timeout are aborted.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS =
            ConfigKey.integer("transaction.remove.expired.transaction.cleanup.interval.ms", 3600000,
                    "How often expired transactional ids are removed.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Boolean> TRANSACTION_PARTITION_VERIFICATION_ENABLE = ConfigKey.bool(
            "transaction.partition.verification.enable", true,
            "Whether a partition's leader checks with the transaction coordinator that the partition is part of the "
                    + "producer's transaction before it writes the transaction's first batch there (KIP-890).");

    public static final ConfigKey<Integer> GROUP_COORDINATOR_THREADS = ConfigKey.integer(
            "group.coordinator.threads", 4,
            "Threads of the group coordinator: each partition of __consumer_offsets this broker leads has its groups "
                    + "on one of them (partition modulo threads), which runs that partition's requests and timers one "
                    + "at a time.")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<String> PROCESS_ROLES = ConfigKey.list("process.roles", "",
            "The roles of this node: broker, controller, or both (broker,controller). Unset with no "
                    + "controller.quorum.voters of other nodes: one node, broker and controller at once, its metadata in "
                    + "a local log. In a cluster a voter of the metadata quorum runs controller alone or both roles; a "
                    + "broker-only node fetches the metadata from the voters.");
    public static final ConfigKey<String> CONTROLLER_QUORUM_VOTERS = ConfigKey.list("controller.quorum.voters", "",
            "The voters of the metadata quorum as id@host:port, the port of each voter's controller listener. "
                    + "Several voters make a cluster: the metadata is replicated by Raft (Apache Ratis), whose own "
                    + "port on each voter is that port plus controller.quorum.raft.port.offset.");
    public static final ConfigKey<String> CONTROLLER_QUORUM_BOOTSTRAP_SERVERS = ConfigKey.list(
            "controller.quorum.bootstrap.servers", "",
            "host:port,... of the controllers, when controller.quorum.voters is not set (KIP-853): a broker-only "
                    + "node fetches from them in turn; on a controller they make a dynamic quorum, which bin/spool "
                    + "format starts and kafka-metadata-quorum add-controller / remove-controller change.");
    public static final ConfigKey<String> CONTROLLER_LISTENER_NAMES = ConfigKey.list("controller.listener.names", "",
            "The listeners the controller serves on (brokers and kafka-metadata-quorum --bootstrap-controller reach "
                    + "it there); never advertised to clients. In a cluster the first must be one of listeners.");
    public static final ConfigKey<Integer> CONTROLLER_QUORUM_RAFT_PORT_OFFSET = ConfigKey.integer(
            "controller.quorum.raft.port.offset", 1,
            "Not a Kafka setting: each voter's Raft (Apache Ratis) port is its controller.quorum.voters port plus "
                    + "this offset; Raft has a protocol of its own, so it cannot share the controller listener.")
            .validatedBy(ConfigValidator.between(1, 65535));
    public static final ConfigKey<String> CLUSTER_ID = ConfigKey.string("cluster.id", "",
            "Not a Kafka setting (Kafka's kafka-storage format writes it): the id of the cluster a node with empty "
                    + "log dirs joins; every node of a cluster needs the same one. A log dir of another cluster stops "
                    + "start-up. Unset on one node: a new random id.");
    public static final ConfigKey<String> BROKER_RACK = ConfigKey.string("broker.rack", "",
            "The rack of this broker: new partitions' replicas are spread over the racks. Empty: no rack.");
    public static final ConfigKey<Integer> BROKER_SESSION_TIMEOUT_MS = ConfigKey.integer("broker.session.timeout.ms",
            9000, "How long the controller waits for a broker's heartbeat before it fences the broker.")
            .validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> BROKER_HEARTBEAT_INTERVAL_MS = ConfigKey.integer(
            "broker.heartbeat.interval.ms", 2000, "How often a broker sends the controller its heartbeat.")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Integer> REPLICA_FETCH_WAIT_MAX_MS = ConfigKey.integer("replica.fetch.wait.max.ms",
            500, "How long a follower's fetch waits at the leader for new records (the delay of an idle "
                    + "partition's high watermark reaching the follower).")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> REPLICA_FETCH_MIN_BYTES = ConfigKey.integer("replica.fetch.min.bytes", 1,
            "The bytes a follower's fetch waits for at the leader.").validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Integer> REPLICA_FETCH_MAX_BYTES = ConfigKey.integer("replica.fetch.max.bytes",
            1048576, "The bytes a follower's fetch asks of each partition (at least one batch is sent).")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> REPLICA_FETCH_RESPONSE_MAX_BYTES = ConfigKey.integer(
            "replica.fetch.response.max.bytes", 10485760, "The bytes of a follower's whole fetch response.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Integer> REPLICA_FETCH_BACKOFF_MS = ConfigKey.integer("replica.fetch.backoff.ms",
            1000, "How long a follower waits after a failed fetch from a leader.")
            .validatedBy(ConfigValidator.atLeast(0));

    public static final ConfigKey<Integer> NUM_REPLICA_FETCHERS = ConfigKey.integer("num.replica.fetchers", 1,
            "The fetcher threads a follower runs per leader it fetches from, each with its share of the partitions "
                    + "(more of them fetch a busy leader's partitions in parallel).")
            .validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Long> LEADER_REPLICATION_THROTTLED_RATE = ConfigKey.longValue(
            "leader.replication.throttled.rate", Long.MAX_VALUE, "The bytes per second this broker sends, as a "
                    + "leader, to out-of-sync followers of the replicas its topics name in "
                    + "leader.replication.throttled.replicas (set by kafka-reassign-partitions --throttle). Dynamic.")
            .validatedBy(ConfigValidator.atLeast(0));
    public static final ConfigKey<Long> FOLLOWER_REPLICATION_THROTTLED_RATE = ConfigKey.longValue(
            "follower.replication.throttled.rate", Long.MAX_VALUE, "The bytes per second this broker fetches, as an "
                    + "out-of-sync follower, for the replicas its topics name in "
                    + "follower.replication.throttled.replicas (set by kafka-reassign-partitions --throttle). Dynamic.")
            .validatedBy(ConfigValidator.atLeast(0));

    public static final ConfigKey<Long> REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND = ConfigKey.longValue(
            "replica.alter.log.dirs.io.max.bytes.per.second", Long.MAX_VALUE, "The bytes per second a replica "
                    + "moving between this broker's log dirs copies. Dynamic; accepted, as kafka-reassign-partitions "
                    + "sets and clears it, without effect yet: a move (AlterReplicaLogDirs) copies as fast as the "
                    + "disks go.")
            .validatedBy(ConfigValidator.atLeast(0));

    public static final ConfigKey<Integer> REPLICA_LAG_TIME_MAX_MS = ConfigKey.integer("replica.lag.time.max.ms",
            30000, "How long a follower may go without catching up with the leader's log end before the leader takes "
                    + "it out of the ISR.").validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<Boolean> AUTO_LEADER_REBALANCE_ENABLE = ConfigKey.bool(
            "auto.leader.rebalance.enable", true, "Whether the active controller gives each partition's leadership "
                    + "back to its preferred replica (the first of its replicas) once that is in sync again.");
    public static final ConfigKey<Integer> LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS = ConfigKey.integer(
            "leader.imbalance.check.interval.seconds", 300, "How often the active controller looks for partitions "
                    + "led by another replica than their preferred one.").validatedBy(ConfigValidator.atLeast(1));
    public static final ConfigKey<Long> UNCLEAN_LEADER_ELECTION_INTERVAL_MS = ConfigKey.longValue(
            "unclean.leader.election.interval.ms", 300_000L, "How often the active controller elects a leader out of "
                    + "sync for partitions without one whose topic allows unclean elections (a fence or an unfence "
                    + "does so at once).").validatedBy(ConfigValidator.atLeast(1));

    public static final ConfigKey<String> METRICS_LISTENER = ConfigKey.string("metrics.listener", "",
            "host:port of the Prometheus metrics endpoint (HTTP, path /metrics), e.g. 127.0.0.1:9404; port 0 picks "
                    + "a free port; empty (the default) serves no metrics endpoint. Not a Kafka setting: Kafka "
                    + "exposes JMX, which Prometheus reaches only through an agent.");

    /** Every declared broker setting but the log defaults: these, then {@link TlsSettings#ALL} and {@link SaslSettings#ALL}. */
    public static final List<ConfigKey<?>> ALL = concat(List.of(NODE_ID, LISTENERS, ADVERTISED_LISTENERS,
            LISTENER_SECURITY_PROTOCOL_MAP, SECURITY_INTER_BROKER_PROTOCOL, INTER_BROKER_LISTENER_NAME,
            AUTHORIZER_CLASS_NAME, SUPER_USERS,
            ALLOW_EVERYONE_IF_NO_ACL_FOUND, LOG_DIRS, LOG_DIR,
            SOCKET_REQUEST_MAX_BYTES, SOCKET_SEND_BUFFER_BYTES, SOCKET_RECEIVE_BUFFER_BYTES, NUM_NETWORK_THREADS,
            MAX_CONNECTIONS, MAX_CONNECTIONS_PER_IP, MAX_CONNECTION_CREATION_RATE, QUOTA_WINDOW_NUM, QUOTA_WINDOW_SIZE_SECONDS,
            CONTROLLER_QUOTA_WINDOW_NUM, CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS,
            CONNECTIONS_MAX_IDLE_MS, QUEUED_MAX_REQUESTS, AUTO_CREATE_TOPICS_ENABLE, NUM_PARTITIONS,
            DEFAULT_REPLICATION_FACTOR, LOG_RETENTION_CHECK_INTERVAL_MS,
            LOG_CLEANER_ENABLE, LOG_CLEANER_THREADS, LOG_CLEANER_DEDUPE_BUFFER_SIZE, LOG_CLEANER_BACKOFF_MS,
            NUM_RECOVERY_THREADS_PER_DATA_DIR, METADATA_SNAPSHOT_INTERVAL_RECORDS,
            NUM_IO_THREADS, PRODUCER_ID_EXPIRATION_MS, MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
            PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
            OFFSETS_TOPIC_NUM_PARTITIONS, OFFSETS_TOPIC_REPLICATION_FACTOR, OFFSETS_TOPIC_SEGMENT_BYTES,
            OFFSETS_RETENTION_MINUTES, OFFSETS_RETENTION_CHECK_INTERVAL_MS, OFFSET_METADATA_MAX_BYTES,
            GROUP_INITIAL_REBALANCE_DELAY_MS, GROUP_MIN_SESSION_TIMEOUT_MS, GROUP_MAX_SESSION_TIMEOUT_MS, GROUP_MAX_SIZE,
            GROUP_COORDINATOR_REBALANCE_PROTOCOLS, GROUP_CONSUMER_SESSION_TIMEOUT_MS, GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            GROUP_CONSUMER_ASSIGNORS, GROUP_CONSUMER_MAX_SIZE, GROUP_CONSUMER_MIGRATION_POLICY,
            GROUP_COORDINATOR_THREADS, TRANSACTION_STATE_LOG_NUM_PARTITIONS, TRANSACTION_STATE_LOG_REPLICATION_FACTOR,
            TRANSACTION_STATE_LOG_MIN_ISR, TRANSACTION_STATE_LOG_SEGMENT_BYTES, TRANSACTION_MAX_TIMEOUT_MS,
            TRANSACTIONAL_ID_EXPIRATION_MS, TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS,
            TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS, TRANSACTION_PARTITION_VERIFICATION_ENABLE,
            PROCESS_ROLES, CONTROLLER_QUORUM_VOTERS,
            CONTROLLER_QUORUM_BOOTSTRAP_SERVERS, CONTROLLER_LISTENER_NAMES, CONTROLLER_QUORUM_RAFT_PORT_OFFSET, CLUSTER_ID,
            BROKER_RACK, BROKER_SESSION_TIMEOUT_MS, BROKER_HEARTBEAT_INTERVAL_MS, REPLICA_FETCH_WAIT_MAX_MS,
            REPLICA_FETCH_MIN_BYTES, REPLICA_FETCH_MAX_BYTES, REPLICA_FETCH_RESPONSE_MAX_BYTES,
            REPLICA_FETCH_BACKOFF_MS, NUM_REPLICA_FETCHERS, LEADER_REPLICATION_THROTTLED_RATE,
            FOLLOWER_REPLICATION_THROTTLED_RATE, REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND, REPLICA_LAG_TIME_MAX_MS,
            AUTO_LEADER_REBALANCE_ENABLE,
            LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS, UNCLEAN_LEADER_ELECTION_INTERVAL_MS, METRICS_LISTENER),
            TlsSettings.ALL, SaslSettings.ALL);

    /** The settings besides the log defaults that may change at run time (IncrementalAlterConfigs on a broker). */
    public static final List<ConfigKey<?>> DYNAMIC = List.of(LEADER_REPLICATION_THROTTLED_RATE,
            FOLLOWER_REPLICATION_THROTTLED_RATE, REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND);

    private static final long HOUR_MS = 3_600_000L;
    private static final long MINUTE_MS = 60_000L;

    /** Broker settings that give topics their log config defaults (Kafka's names and pairings). */
    public static final List<LogDefaultSetting> LOG_DEFAULTS = List.of(
            LogDefaultSetting.same("log.segment.bytes", "segment.bytes", "Default segment.bytes."),
            new LogDefaultSetting("log.roll.ms", "segment.ms", 1, 0, "Default segment.ms."),
            new LogDefaultSetting("log.roll.hours", "segment.ms", HOUR_MS, 1, "Default segment.ms, in hours."),
            new LogDefaultSetting("log.roll.jitter.ms", "segment.jitter.ms", 1, 0, "Default segment.jitter.ms."),
            new LogDefaultSetting("log.roll.jitter.hours", "segment.jitter.ms", HOUR_MS, 1,
                    "Default segment.jitter.ms, in hours."),
            LogDefaultSetting.same("log.index.size.max.bytes", "segment.index.bytes", "Default segment.index.bytes."),
            LogDefaultSetting.same("log.index.interval.bytes", "index.interval.bytes", "Default index.interval.bytes."),
            new LogDefaultSetting("log.retention.ms", "retention.ms", 1, 0, "Default retention.ms."),
            new LogDefaultSetting("log.retention.minutes", "retention.ms", MINUTE_MS, 1,
                    "Default retention.ms, in minutes."),
            new LogDefaultSetting("log.retention.hours", "retention.ms", HOUR_MS, 2,
                    "Default retention.ms, in hours (168: 7 days)."),
            LogDefaultSetting.same("log.retention.bytes", "retention.bytes", "Default retention.bytes."),
            LogDefaultSetting.same("log.flush.interval.messages", "flush.messages", "Default flush.messages."),
            LogDefaultSetting.same("log.flush.interval.ms", "flush.ms", "Default flush.ms."),
            LogDefaultSetting.same("log.segment.delete.delay.ms", "file.delete.delay.ms", "Default file.delete.delay.ms."),
            LogDefaultSetting.same("message.max.bytes", "max.message.bytes", "Default max.message.bytes."),
            LogDefaultSetting.same("log.message.timestamp.type", "message.timestamp.type",
                    "Default message.timestamp.type."),
            LogDefaultSetting.same("log.message.timestamp.before.max.ms", "message.timestamp.before.max.ms",
                    "Default message.timestamp.before.max.ms."),
            LogDefaultSetting.same("log.message.timestamp.after.max.ms", "message.timestamp.after.max.ms",
                    "Default message.timestamp.after.max.ms."),
            LogDefaultSetting.same("log.cleanup.policy", "cleanup.policy", "Default cleanup.policy."),
            LogDefaultSetting.same("log.cleaner.delete.retention.ms", "delete.retention.ms",
                    "Default delete.retention.ms."),
            LogDefaultSetting.same("log.cleaner.min.compaction.lag.ms", "min.compaction.lag.ms",
                    "Default min.compaction.lag.ms."),
            LogDefaultSetting.same("log.cleaner.max.compaction.lag.ms", "max.compaction.lag.ms",
                    "Default max.compaction.lag.ms."),
            LogDefaultSetting.same("log.cleaner.min.cleanable.ratio", "min.cleanable.dirty.ratio",
                    "Default min.cleanable.dirty.ratio."),
            LogDefaultSetting.same("compression.type", "compression.type", "Default compression.type."),
            LogDefaultSetting.same("min.insync.replicas", "min.insync.replicas", "Default min.insync.replicas."),
            LogDefaultSetting.same("unclean.leader.election.enable", "unclean.leader.election.enable",
                    "Default unclean.leader.election.enable."),
            LogDefaultSetting.same("log.preallocate", "preallocate", "Default preallocate."),
            LogDefaultSetting.same("compression.gzip.level", "compression.gzip.level",
                    "Default compression.gzip.level."),
            LogDefaultSetting.same("compression.lz4.level", "compression.lz4.level", "Default compression.lz4.level."),
            LogDefaultSetting.same("compression.zstd.level", "compression.zstd.level",
                    "Default compression.zstd.level."),
            LogDefaultSetting.same("log.local.retention.ms", "local.retention.ms", "Default local.retention.ms."),
            LogDefaultSetting.same("log.local.retention.bytes", "local.retention.bytes",
                    "Default local.retention.bytes."));

    private final Map<String, String> values;
    private final ClusterSettings cluster;
    private final NodeListenerSecurity interBrokerSecurity;
    private final NodeListenerSecurity controllerSecurity;

    public BrokerConfig(Map<String, String> properties) {
        Map<String, String> known = new TreeMap<>();
        java.util.SortedSet<String> unknown = new java.util.TreeSet<>();
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            String name = withLowerCaseListener(entry.getKey());
            if (isDeclared(name)) {
                known.put(name, entry.getValue());
            } else {
                unknown.add(entry.getKey());
            }
        }
        if (!unknown.isEmpty()) {
            // One line for all of them: a server.properties written for Kafka names many settings Spool lacks.
            LOG.warn("Ignoring unknown or unsupported settings: {}", String.join(", ", unknown));
        }
        this.values = Collections.unmodifiableMap(known);
        for (ConfigKey<?> key : ALL) {
            get(key);
        }
        known.forEach((name, value) -> {
            ConfigKey<?> listenerSetting = TlsSettings.keyOfListenerSetting(name);
            if (listenerSetting != null) {
                try {
                    listenerSetting.parse(value);
                } catch (ConfigException e) {
                    throw new ConfigException(e.getMessage() + " (as " + name + ")");
                }
            }
        });
        if (nodeId() < 0) {
            throw new ConfigException("node.id must be >= 0, got " + nodeId());
        }
        if (socketRequestMaxBytes() <= 0) {
            throw new ConfigException("socket.request.max.bytes must be > 0, got " + socketRequestMaxBytes());
        }
        // Parsed here as well as on use so that a bad value fails before anything starts: Broker.start
        // reads advertised.listeners only after binding the listeners.
        ListenerSecurity security = ListenerSecurity.parse(get(LISTENER_SECURITY_PROTOCOL_MAP));
        security.requireServed(listeners(), LISTENERS.name());
        security.requireServed(advertisedListeners(), ADVERTISED_LISTENERS.name());
        logDirs();
        metricsListener();
        this.cluster = ClusterSettings.of(this);
        if (cluster.isBroker()) {
            interBrokerListenerName(); // refused now, not when the broker registers
        }
        // A single node connects to no other: its listeners' security is its clients' only.
        this.interBrokerSecurity = cluster.isBroker() && cluster.isCluster() ? InterNodeSecurity.forListener(this, security,
                interBrokerListenerName(), SaslSettings.MECHANISM_INTER_BROKER_PROTOCOL) : null;
        // A broker-only node that names no controller listener reaches the controllers as before, on PLAINTEXT.
        this.controllerSecurity = !cluster.isCluster() ? null : cluster.controllerListenerNames().isEmpty()
                ? NodeListenerSecurity.plaintext("") : InterNodeSecurity.forListener(this, security,
                cluster.controllerListenerNames().get(0), SaslSettings.MECHANISM_CONTROLLER_PROTOCOL);
        if (cluster.isVoter() && cluster.isCluster()) {
            InterNodeSecurity.requireRaftCanSecure(controllerSecurity);
        }
        checkLogDefaults();
    }

    /** Each topic default set here must be a valid value of its topic config: refused naming the broker setting. */
    private void checkLogDefaults() {
        for (LogDefaultSetting setting : LOG_DEFAULTS) {
            String raw = values.get(setting.brokerName());
            if (raw == null) {
                continue;
            }
            setting.check(raw);
        }
    }

    /** The metrics endpoint, or null when none is configured. */
    public Endpoint metricsListener() {
        String listener = get(METRICS_LISTENER);
        if (listener == null || listener.isBlank()) {
            return null;
        }
        if (listener.contains("://")) {
            throw new ConfigException(METRICS_LISTENER.name() + " takes host:port (e.g. 127.0.0.1:9404), got '"
                    + listener + "'");
        }
        return Endpoint.parse("HTTP://" + listener.trim(), METRICS_LISTENER.name());
    }

    @SafeVarargs
    private static List<ConfigKey<?>> concat(List<ConfigKey<?>>... lists) {
        List<ConfigKey<?>> all = new ArrayList<>();
        for (List<ConfigKey<?>> list : lists) {
            all.addAll(list);
        }
        return List.copyOf(all);
    }

    /**
     * {@code listener.name.<listener>.<setting>} with the listener's name in lower case, as it is looked up: Kafka
     * writes it so, and a setting written {@code listener.name.SSL...} must not silently miss its listener.
     */
    private static String withLowerCaseListener(String name) {
        String prefix = "listener.name.";
        int end = name.startsWith(prefix) ? name.indexOf('.', prefix.length()) : -1;
        return end < 0 ? name : prefix + name.substring(prefix.length(), end).toLowerCase(java.util.Locale.ROOT)
                + name.substring(end);
    }

    private static boolean isDeclared(String name) {
        if (TlsSettings.isListenerSetting(name) || SaslSettings.isListenerSetting(name)) {
            return true;
        }
        for (ConfigKey<?> key : ALL) {
            if (key.name().equals(name)) {
                return true;
            }
        }
        for (LogDefaultSetting setting : LOG_DEFAULTS) {
            if (setting.brokerName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The topic log config defaults this broker's settings give, by topic config name; a topic config
     * no broker setting names keeps Kafka's default. Values are checked by the log's config parser.
     */
    public Map<String, String> logConfigDefaults() {
        Map<String, String> defaults = new TreeMap<>();
        Map<String, Integer> chosenPrecedence = new TreeMap<>();
        for (LogDefaultSetting setting : LOG_DEFAULTS) {
            String raw = values.get(setting.brokerName());
            Integer chosen = chosenPrecedence.get(setting.topicName());
            if (raw == null || (chosen != null && chosen <= setting.precedence())) {
                continue;
            }
            String value = raw.trim();
            if (setting.toTopicUnit() != 1) {
                try {
                    value = String.valueOf(Math.multiplyExact(Long.parseLong(value), setting.toTopicUnit()));
                } catch (NumberFormatException | ArithmeticException e) {
                    throw new ConfigException("invalid value '" + raw + "' for " + setting.brokerName());
                }
            }
            defaults.put(setting.topicName(), value);
            chosenPrecedence.put(setting.topicName(), setting.precedence());
        }
        return defaults;
    }

    public boolean autoCreateTopics() {
        return get(AUTO_CREATE_TOPICS_ENABLE);
    }

    public int numPartitions() {
        return get(NUM_PARTITIONS);
    }

    public short defaultReplicationFactor() {
        return (short) (int) get(DEFAULT_REPLICATION_FACTOR);
    }

    public long metadataSnapshotIntervalRecords() {
        return get(METADATA_SNAPSHOT_INTERVAL_RECORDS);
    }

    public int numIoThreads() {
        int threads = get(NUM_IO_THREADS);
        if (threads < 1) {
            throw new ConfigException("num.io.threads must be >= 1, got " + threads);
        }
        return threads;
    }

    public long producerIdExpirationMs() {
        return get(PRODUCER_ID_EXPIRATION_MS);
    }

    public long producerIdExpirationCheckIntervalMs() {
        return get(PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS);
    }

    public int maxIncrementalFetchSessionCacheSlots() {
        return get(MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS);
    }

    public long logRetentionCheckIntervalMs() {
        return get(LOG_RETENTION_CHECK_INTERVAL_MS);
    }

    public <T> T get(ConfigKey<T> key) {
        return key.parse(values.get(key.name()));
    }

    /** A setting as in force on one listener: {@code listener.name.<listener>.<name>} if set, else the setting. */
    public <T> T listenerValue(String listenerName, ConfigKey<T> key) {
        String own = values.get(TlsSettings.listenerName(listenerName, key));
        return key.parse(own != null ? own : values.get(key.name()));
    }

    /** The explicitly set values (secrets included: see {@link #loggableValues}). */
    public Map<String, String> explicitValues() {
        return new LinkedHashMap<>(values);
    }

    /** The explicitly set values with every secret (a PASSWORD setting, for any listener) shown as [hidden]. */
    public Map<String, String> loggableValues() {
        Map<String, String> loggable = new LinkedHashMap<>(values);
        loggable.replaceAll((name, value) -> isSecret(name) ? "[hidden]" : value);
        return loggable;
    }

    /** Whether {@code name} is a PASSWORD setting, plain or for one listener. */
    public static boolean isSecret(String name) {
        for (ConfigKey<?> key : ALL) {
            if (key.isSensitive() && (name.equals(key.name()) || name.endsWith("." + key.name())
                    && (TlsSettings.isListenerSetting(name) || SaslSettings.isListenerSetting(name)))) {
                return true;
            }
        }
        return false;
    }

    /** The node's KRaft roles and quorum, checked. */
    public ClusterSettings cluster() {
        return cluster;
    }

    public int nodeId() {
        return get(NODE_ID);
    }

    /** {@code broker.rack}, or null when it is not set. */
    public String rack() {
        String rack = get(BROKER_RACK).trim();
        return rack.isEmpty() ? null : rack;
    }

    public List<Endpoint> listeners() {
        return endpoints(get(LISTENERS), LISTENERS.name());
    }

    /** The advertised endpoints, or an empty list when they follow the listeners. */
    public List<Endpoint> advertisedListeners() {
        String advertised = get(ADVERTISED_LISTENERS);
        return advertised == null || advertised.isBlank() ? List.of() : endpoints(advertised, ADVERTISED_LISTENERS.name());
    }

    public List<Path> logDirs() {
        String dirs = get(LOG_DIRS);
        String chosen = dirs == null || dirs.isBlank() ? get(LOG_DIR) : dirs;
        List<Path> paths = new ArrayList<>();
        for (String dir : chosen.split(",")) {
            if (!dir.isBlank()) {
                paths.add(Path.of(dir.trim()));
            }
        }
        if (paths.isEmpty()) {
            throw new ConfigException("log.dirs names no directory");
        }
        return paths;
    }

    public int socketRequestMaxBytes() {
        return get(SOCKET_REQUEST_MAX_BYTES);
    }

    /**
     * The listeners other nodes connect to: the first advertised one that is not a controller listener (brokers
     * reach each other on it, as it is registered first) and the controller listeners.
     */
    /**
     * The listener other brokers reach this one on: {@code inter.broker.listener.name}; else the one named as
     * {@code security.inter.broker.protocol} when that is set (as Kafka); else the first advertised listener that is
     * not a controller's. Null on a node with controller listeners only.
     *
     * @throws ConfigException when both settings are set, or the listener is not one of this node's
     */
    public String interBrokerListenerName() {
        String named = get(INTER_BROKER_LISTENER_NAME);
        String byProtocol = values.get(SECURITY_INTER_BROKER_PROTOCOL.name());
        List<Endpoint> advertised = advertisedListeners().isEmpty() ? listeners() : advertisedListeners();
        if (named == null || named.isBlank()) {
            if (byProtocol == null) {
                return advertised.stream().map(Endpoint::listenerName)
                        .filter(name -> !cluster.isControllerListener(name)).findFirst().orElse(null);
            }
            named = byProtocol.trim();
        } else if (byProtocol != null) {
            throw new ConfigException("only one of " + INTER_BROKER_LISTENER_NAME.name() + " and "
                    + SECURITY_INTER_BROKER_PROTOCOL.name() + " may be set");
        }
        String listener = named.trim();
        if (cluster.isControllerListener(listener)) {
            throw new ConfigException("the inter-broker listener " + listener + " is a controller listener ("
                    + CONTROLLER_LISTENER_NAMES.name() + "); brokers need a listener of their own");
        }
        if (advertised.stream().noneMatch(endpoint -> endpoint.listenerName().equalsIgnoreCase(listener))) {
            throw new ConfigException("the inter-broker listener " + listener + " is not one of this node's listeners "
                    + "(" + LISTENERS.name() + ", " + ADVERTISED_LISTENERS.name() + ")");
        }
        return listener;
    }

    /** The principals of {@code super.users} ({@code User:name}). */
    public Set<String> superUsers() {
        Set<String> users = new HashSet<>();
        for (String user : get(SUPER_USERS).split(";")) {
            if (!user.isBlank()) {
                users.add(user.trim());
            }
        }
        return Set.copyOf(users);
    }

    /** How this broker connects to the other brokers' inter-broker listener; null on a controller-only node. */
    public NodeListenerSecurity interBrokerSecurity() {
        return interBrokerSecurity;
    }

    /** How this node connects to the controllers' listener; null on a node that is not in a cluster. */
    public NodeListenerSecurity controllerSecurity() {
        return controllerSecurity;
    }

    /** The security protocol of a listener or advertised listener, by its name ({@code listener.security.protocol.map}). */
    public String securityProtocolOf(Endpoint listener) {
        String protocol = ListenerSecurity.parse(get(LISTENER_SECURITY_PROTOCOL_MAP)).protocolOf(listener.listenerName());
        if (protocol == null) {
            throw new IllegalArgumentException("listener " + listener + " is not mapped to a security protocol");
        }
        return protocol;
    }

    public int numNetworkThreads() {
        int threads = get(NUM_NETWORK_THREADS);
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    private static List<Endpoint> endpoints(String text, String property) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                endpoints.add(Endpoint.parse(part, property));
            }
        }
        if (endpoints.isEmpty()) {
            throw new ConfigException(property + " names no endpoint");
        }
        return endpoints;
    }
}
