package dev.spool.bench;

import dev.spool.broker.network.FileRecords;
import dev.spool.log.record.RecordBatch;
import dev.spool.log.record.RecordBatchLayout;
import dev.spool.protocol.types.ByteBufferRecords;
import dev.spool.protocol.types.Records;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * For {@link NullBroker}: one partition of a log directory written by a broker (Spool's or Kafka's,
 * the layout is the same), served read-only: where each batch starts, found once at load by walking
 * the batch headers, and a read that returns whole batches as a file region (sent with sendfile).
 * Immutable after {@link #loadAll}; thread-safe.
 */
final class StoredPartition {

    private static final Pattern PARTITION_DIR = Pattern.compile("(.+)-(\\d+)");

    private final FileChannel[] segments;
    private final long[] baseOffsets; // of every batch, ascending
    private final int[] segmentOf;
    private final int[] positions;
    private final int[] sizes;
    private final long endOffset;
    private final long records; // what a consumer receives: the records of the batches that are not control batches

    private StoredPartition(FileChannel[] segments, long[] baseOffsets, int[] segmentOf, int[] positions, int[] sizes,
                            long endOffset, long records) {
        this.segments = segments;
        this.baseOffsets = baseOffsets;
        this.segmentOf = segmentOf;
        this.positions = positions;
        this.sizes = sizes;
        this.endOffset = endOffset;
        this.records = records;
    }

    /** Every partition under {@code logDir}, by topic name and then partition index. */
    static Map<String, StoredPartition[]> loadAll(Path logDir) throws IOException {
        Map<String, TreeMap<Integer, StoredPartition>> found = new HashMap<>();
        try (Stream<Path> dirs = Files.list(logDir)) {
            for (Path dir : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
                Matcher name = PARTITION_DIR.matcher(dir.getFileName().toString());
                if (name.matches()) {
                    found.computeIfAbsent(name.group(1), t -> new TreeMap<>())
                            .put(Integer.parseInt(name.group(2)), load(dir));
                }
            }
        }
        Map<String, StoredPartition[]> topics = new HashMap<>();
        found.forEach((topic, partitions) -> topics.put(topic, partitions.values().toArray(new StoredPartition[0])));
        return topics;
    }

    private static StoredPartition load(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> f.toString().endsWith(".log")).sorted().toList();
        }
        FileChannel[] segments = new FileChannel[files.size()];
        List<long[]> batches = new ArrayList<>(); // base offset, segment, position, size
        long end = 0;
        long records = 0;
        ByteBuffer header = ByteBuffer.allocate(RecordBatchLayout.HEADER_SIZE_BYTES);
        for (int s = 0; s < segments.length; s++) {
            segments[s] = FileChannel.open(files.get(s), StandardOpenOption.READ);
            long size = segments[s].size();
            for (long at = 0; readFully(segments[s], header, at); ) {
                int batchBytes = RecordBatch.sizeAt(header, 0);
                if (batchBytes < RecordBatchLayout.HEADER_SIZE_BYTES || at + batchBytes > size) {
                    break; // a preallocated or torn tail
                }
                long base = header.getLong(RecordBatchLayout.BASE_OFFSET_OFFSET);
                batches.add(new long[] {base, s, at, batchBytes});
                end = base + header.getInt(RecordBatchLayout.LAST_OFFSET_DELTA_OFFSET) + 1;
                if ((header.getShort(RecordBatchLayout.ATTRIBUTES_OFFSET) & RecordBatchLayout.CONTROL_FLAG_MASK) == 0) {
                    records += header.getInt(RecordBatchLayout.RECORD_COUNT_OFFSET);
                }
                at += batchBytes;
            }
        }
        int n = batches.size();
        long[] baseOffsets = new long[n];
        int[] segmentOf = new int[n];
        int[] positions = new int[n];
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) {
            long[] b = batches.get(i);
            baseOffsets[i] = b[0];
            segmentOf[i] = (int) b[1];
            positions[i] = (int) b[2];
            sizes[i] = (int) b[3];
        }
        return new StoredPartition(segments, baseOffsets, segmentOf, positions, sizes, end, records);
    }

    /** Fills {@code header} from {@code position} on; false at the end of the file. */
    private static boolean readFully(FileChannel segment, ByteBuffer header, long position) throws IOException {
        header.clear();
        while (header.hasRemaining()) {
            if (segment.read(header, position + header.position()) < 0) {
                return false;
            }
        }
        return true;
    }

    long endOffset() {
        return endOffset;
    }

    /** The offset of the first stored batch: what ListOffsets answers for the earliest offset. */
    long startOffset() {
        return baseOffsets.length == 0 ? endOffset : baseOffsets[0];
    }

    long records() {
        return records;
    }

    /**
     * The whole batches from the one holding {@code offset} (or the first, below it) on, within one
     * segment and {@code maxBytes}; with {@code atLeastOne} the first batch even when it alone is larger,
     * as a broker answers the first partition of a Fetch. Empty at or past the end.
     */
    Records read(long offset, int maxBytes, boolean atLeastOne) {
        int first = Arrays.binarySearch(baseOffsets, offset);
        if (first < 0) {
            first = Math.max(0, -first - 2); // the batch before the insertion point holds the offset
        }
        if (offset >= endOffset || (!atLeastOne && sizes[first] > maxBytes)) {
            return new ByteBufferRecords(ByteBuffer.allocate(0));
        }
        int last = first;
        int bytes = sizes[first];
        while (last + 1 < sizes.length && segmentOf[last + 1] == segmentOf[first]
                && bytes + sizes[last + 1] <= maxBytes) {
            bytes += sizes[++last];
        }
        return new FileRecords(segments[segmentOf[first]], positions[first], bytes);
    }
}
