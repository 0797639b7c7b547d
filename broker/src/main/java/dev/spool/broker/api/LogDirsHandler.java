package dev.spool.broker.api;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
import dev.spool.log.LogManager;
import dev.spool.protocol.Errors;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * DescribeLogDirs: every directory of {@code log.dirs}, each with its partitions (all, or those asked
 * for) with their size on disk, offset lag 0 (no replica is moving between directories) and no future
 * replica, and the directory's total and usable bytes (v4+). A directory taken offline after an I/O
 * error (KIP-112) is answered as Kafka does: KAFKA_STORAGE_ERROR, no partitions, unknown sizes. The
 * file-system queries run on {@code executor}, off the network thread. Thread-safe.
 */
public final class LogDirsHandler implements ApiHandler {

    /** Kafka's UNKNOWN_VOLUME_BYTES: the size of a directory that cannot be asked. */
    private static final long UNKNOWN_VOLUME_BYTES = -1;

    private final PartitionManager partitions;
    private final Executor executor;

    public LogDirsHandler(PartitionManager partitions, Executor executor) {
        this.partitions = partitions;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<Message> handle(RequestContext context, Message request) {
        DescribeLogDirsRequestData describe = (DescribeLogDirsRequestData) request;
        return CompletableFuture.supplyAsync(() -> describe(describe), executor);
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
        // log dir -> topic -> partition -> bytes
        Map<Path, Map<String, Map<Integer, Long>>> sizes = new HashMap<>();
        for (Partition partition : partitions.all()) {
            String topic = partition.topicPartition().topic();
            int index = partition.topicPartition().partition();
            if (!partition.isOffline() && (wanted == null || wanted.getOrDefault(topic, Set.of()).contains(index))) {
                sizes.computeIfAbsent(partition.log().dir().getParent(), dir -> new TreeMap<>())
                        .computeIfAbsent(topic, name -> new TreeMap<>()).put(index, partition.log().sizeInBytes());
            }
        }
        List<DescribeLogDirsResult> results = new ArrayList<>();
        for (Path logDir : logs.logDirs()) {
            results.add(logs.isOffline(logDir) ? offline(logDir) : online(logDir, sizes.getOrDefault(logDir, Map.of())));
        }
        return new DescribeLogDirsResponseData().setErrorCode(Errors.NONE.code()).setResults(results);
    }

    private static DescribeLogDirsResult offline(Path logDir) {
        return new DescribeLogDirsResult().setLogDir(name(logDir)).setErrorCode(Errors.KAFKA_STORAGE_ERROR.code())
                .setTopics(new ArrayList<>()).setTotalBytes(UNKNOWN_VOLUME_BYTES).setUsableBytes(UNKNOWN_VOLUME_BYTES);
    }

    private static DescribeLogDirsResult online(Path logDir, Map<String, Map<Integer, Long>> sizes) {
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(name(logDir))
                .setErrorCode(Errors.NONE.code()).setTopics(new ArrayList<>());
        for (Map.Entry<String, Map<Integer, Long>> topic : sizes.entrySet()) {
            DescribeLogDirsTopic described = new DescribeLogDirsTopic().setName(topic.getKey())
                    .setPartitions(new ArrayList<>());
            topic.getValue().forEach((index, bytes) -> described.partitions().add(new DescribeLogDirsPartition()
                    .setPartitionIndex(index).setPartitionSize(bytes).setOffsetLag(0).setIsFutureKey(false)));
            result.topics().add(described);
        }
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
