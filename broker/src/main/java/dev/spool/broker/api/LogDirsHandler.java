package dev.spool.broker.api;

import dev.spool.broker.partition.Partition;
import dev.spool.broker.partition.PartitionManager;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * DescribeLogDirs: the one log directory, its partitions (all, or those asked for) with their size on
 * disk, offset lag 0 (no replica is moving between directories) and no future replica, and the
 * directory's total and usable bytes (v4+). The file-system query runs on {@code executor}, off the
 * network thread. Thread-safe.
 */
public final class LogDirsHandler implements ApiHandler {

    private final Path logDir;
    private final PartitionManager partitions;
    private final Executor executor;

    public LogDirsHandler(Path logDir, PartitionManager partitions, Executor executor) {
        this.logDir = logDir.toAbsolutePath().normalize();
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
        Map<String, Map<Integer, Long>> sizes = new TreeMap<>();
        for (Partition partition : partitions.all()) {
            String topic = partition.topicPartition().topic();
            int index = partition.topicPartition().partition();
            if (wanted == null || wanted.getOrDefault(topic, Set.of()).contains(index)) {
                sizes.computeIfAbsent(topic, name -> new TreeMap<>()).put(index, partition.log().sizeInBytes());
            }
        }
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(logDir.toString())
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
        return new DescribeLogDirsResponseData().setErrorCode(Errors.NONE.code())
                .setResults(new ArrayList<>(List.of(result)));
    }
}
