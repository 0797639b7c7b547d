package dev.spool.broker.api;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.LogManager;
import dev.spool.log.PartitionLog;
import dev.spool.log.TopicPartition;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData.AlterReplicaLogDir;
import dev.spool.protocol.message.AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult;
import dev.spool.protocol.message.AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeLogDirsRequestData;
import dev.spool.protocol.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import dev.spool.protocol.message.DescribeLogDirsResponseData;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import dev.spool.protocol.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import dev.spool.protocol.types.Message;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Thread-safe. The log dirs of this broker (KIP-113), each request on {@code executor}, off the network threads
 * (file-system queries, creating a log).
 *
 * <p>DescribeLogDirs: every directory of {@code log.dirs}, each with its partitions (all, or those asked for) with
 * their size on disk, and the copies of replicas moving there (future replicas, their offset lag the log end
 * offsets between), and the directory's total and usable bytes (v4+). A directory taken offline after an I/O error
 * (KIP-112) is answered as Kafka does: KAFKA_STORAGE_ERROR, no partitions, unknown sizes.
 *
 * <p>AlterReplicaLogDirs: moves replicas to another of this broker's log dirs while they are written
 * ({@link LogManager#moveToDir}); LOG_DIR_NOT_FOUND for a path not in {@code log.dirs}, KAFKA_STORAGE_ERROR for an
 * offline directory or replica, REPLICA_NOT_AVAILABLE for a replica this broker does not host yet (it is created
 * in that directory when it comes; Kafka's tool asks again until then).
 */
public final class LogDirsHandler implements ApiFamily {

    /** Kafka's UNKNOWN_VOLUME_BYTES: the size of a directory that cannot be asked. */
    private static final long UNKNOWN_VOLUME_BYTES = -1;

    private final PartitionManager partitions;
    private final Executor executor;

    public LogDirsHandler(PartitionManager partitions, Executor executor) {
        this.partitions = partitions;
        this.executor = executor;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.DESCRIBE_LOG_DIRS, 1, 5, DescribeLogDirsRequestData.class,
                        (context, request) -> CompletableFuture.supplyAsync(() -> describe(request), executor))
                .register(ApiKey.ALTER_REPLICA_LOG_DIRS, 1, 2, AlterReplicaLogDirsRequestData.class,
                        (context, request) -> CompletableFuture.supplyAsync(() -> alter(request), executor));
    }

    private Message alter(AlterReplicaLogDirsRequestData request) {
        Map<String, AlterReplicaLogDirTopicResult> results = new TreeMap<>();
        for (AlterReplicaLogDir dir : request.dirs()) {
            Path logDir = logDirNamed(dir.path());
            for (AlterReplicaLogDirTopic topic : dir.topics()) {
                AlterReplicaLogDirTopicResult result = results.computeIfAbsent(topic.name(), name ->
                        new AlterReplicaLogDirTopicResult().setTopicName(name).setPartitions(new ArrayList<>()));
                for (int index : topic.partitions()) {
                    result.partitions().add(new AlterReplicaLogDirPartitionResult().setPartitionIndex(index)
                            .setErrorCode(move(new TopicPartition(topic.name(), index), logDir).code()));
                }
            }
        }
        return new AlterReplicaLogDirsResponseData().setResults(new ArrayList<>(results.values()));
    }

    /** The log dir of {@code log.dirs} that {@code path} names (as DescribeLogDirs names it), or null. */
    private Path logDirNamed(String path) {
        for (Path logDir : partitions.logManager().logDirs()) {
            if (name(logDir).equals(path)) {
                return logDir;
            }
        }
        return null;
    }

    private Errors move(TopicPartition topicPartition, Path logDir) {
        LogManager logs = partitions.logManager();
        if (logDir == null) {
            return Errors.LOG_DIR_NOT_FOUND;
        }
        Partition partition = partitions.get(topicPartition.topic(), topicPartition.partition());
        if (logs.isOffline(logDir) || partition != null && partition.isOffline()) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        try {
            logs.moveToDir(topicPartition, logDir);
        } catch (IOException e) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        return partition == null ? Errors.REPLICA_NOT_AVAILABLE : Errors.NONE;
    }

    private Message describe(DescribeLogDirsRequestData request) {
        Map<String, Set<Integer>> wanted = null;
        if (request.topics() != null) {
            wanted = new TreeMap<>();
            for (DescribableLogDirTopic topic : request.topics()) {
                wanted.computeIfAbsent(topic.topic(), name -> new TreeSet<>()).addAll(topic.partitions());
            }
        }
        LogManager logs = partitions.logManager();
        Map<Path, Map<String, List<DescribeLogDirsPartition>>> byDir = new HashMap<>();
        for (Partition partition : partitions.all()) {
            TopicPartition topicPartition = partition.topicPartition();
            if (!partition.isOffline() && isWanted(wanted, topicPartition)) {
                PartitionLog log = partition.log();
                add(byDir, log.dir().getParent(), topicPartition, new DescribeLogDirsPartition()
                        .setPartitionSize(log.sizeInBytes()).setOffsetLag(0).setIsFutureKey(false));
            }
        }
        // The copies of replicas moving here: their size, and how far they are behind the current log.
        for (Map.Entry<TopicPartition, PartitionLog> future : logs.futureLogs().entrySet()) {
            TopicPartition topicPartition = future.getKey();
            Partition partition = partitions.get(topicPartition.topic(), topicPartition.partition());
            PartitionLog copy = future.getValue();
            // A copy in the dir its partition's log is in has just been swapped in (a move never targets the dir it
            // leaves): the mover forgets it a moment later, and until then it is that log, not a second replica.
            if (partition != null && isWanted(wanted, topicPartition)
                    && !copy.dir().getParent().equals(partition.log().dir().getParent())) {
                long lag = Math.max(0, partition.log().logEndOffset() - copy.logEndOffset());
                add(byDir, copy.dir().getParent(), topicPartition, new DescribeLogDirsPartition()
                        .setPartitionSize(copy.sizeInBytes()).setOffsetLag(lag).setIsFutureKey(true));
            }
        }
        List<DescribeLogDirsResult> results = new ArrayList<>();
        for (Path logDir : logs.logDirs()) {
            results.add(logs.isOffline(logDir) ? offline(logDir) : online(logDir, byDir.getOrDefault(logDir, Map.of())));
        }
        return new DescribeLogDirsResponseData().setErrorCode(Errors.NONE.code()).setResults(results);
    }

    private static boolean isWanted(Map<String, Set<Integer>> wanted, TopicPartition partition) {
        return wanted == null || wanted.getOrDefault(partition.topic(), Set.of()).contains(partition.partition());
    }

    private static void add(Map<Path, Map<String, List<DescribeLogDirsPartition>>> byDir, Path logDir,
                            TopicPartition partition, DescribeLogDirsPartition described) {
        byDir.computeIfAbsent(logDir, dir -> new TreeMap<>()).computeIfAbsent(partition.topic(), name -> new ArrayList<>())
                .add(described.setPartitionIndex(partition.partition()));
    }

    private static DescribeLogDirsResult offline(Path logDir) {
        return new DescribeLogDirsResult().setLogDir(name(logDir)).setErrorCode(Errors.KAFKA_STORAGE_ERROR.code())
                .setTopics(new ArrayList<>()).setTotalBytes(UNKNOWN_VOLUME_BYTES).setUsableBytes(UNKNOWN_VOLUME_BYTES);
    }

    private static DescribeLogDirsResult online(Path logDir, Map<String, List<DescribeLogDirsPartition>> topics) {
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(name(logDir))
                .setErrorCode(Errors.NONE.code()).setTopics(new ArrayList<>());
        topics.forEach((topic, described) -> {
            described.sort(Comparator.comparingInt(DescribeLogDirsPartition::partitionIndex));
            result.topics().add(new DescribeLogDirsTopic().setName(topic).setPartitions(described));
        });
        try {
            FileStore store = Files.getFileStore(logDir);
            result.setTotalBytes(store.getTotalSpace()).setUsableBytes(store.getUsableSpace());
        } catch (IOException e) {
            result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        return result;
    }

    private static String name(Path logDir) {
        return logDir.toAbsolutePath().normalize().toString();
    }
}
