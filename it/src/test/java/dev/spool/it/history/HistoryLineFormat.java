package dev.spool.it.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The history file format, described once. Stateless.
 *
 * <pre>
 * # spool history v1                                      comment lines start with '#'
 * time-nanos  process  type  operation  [key=value]...     fields separated by one TAB
 *
 * 1000        p0       ok      open   enable.idempotence=true  max.in.flight.requests.per.connection=5
 * 2150        p0       invoke  send   partition=jt-0  value=17
 * 9870        p0       ok      send   partition=jt-0  value=17  offset=4
 * 12000       c1       ok      poll   reads=jt-0:3:16,jt-0:4:17
 * 13000       c1       ok      seek   offsets=jt-0:0
 * 14000       t2       info    txn-commit  txn=t2-5  error=org.apache.kafka.common.errors.TimeoutException
 * </pre>
 *
 * <p>The keys, always in this order when present: {@code txn}, {@code partition}
 * ({@code topic-partition}), {@code value}, {@code offset}, {@code reads}
 * ({@code topic-partition:offset:value} joined by ','), {@code partitions} (joined by ','),
 * {@code offsets} ({@code topic-partition:offset} joined by ','), {@code error}; then the
 * attributes, sorted by name. Every other key is an attribute, so a client's configuration
 * can be recorded under Kafka's own names.
 *
 * <p>Design note: one event per line, tab-separated, so that {@code grep value=17} finds a send and
 * {@code awk -F'\t' '$3 == "fail"'} the failures, and so that a test killed in the middle leaves
 * every line but possibly the last whole. Values, processes and transaction ids must therefore hold
 * no whitespace and no ','; a value may hold ':' (it is last in a read). Error messages are free
 * text: their tabs and line breaks are written as spaces.
 */
public final class HistoryLineFormat {

    /** The first line of every history file. */
    public static final String HEADER = "# spool history v1";

    private static final String TXN = "txn";
    private static final String PARTITION = "partition";
    private static final String VALUE = "value";
    private static final String OFFSET = "offset";
    private static final String READS = "reads";
    private static final String PARTITIONS = "partitions";
    private static final String OFFSETS = "offsets";
    private static final String ERROR = "error";
    private static final Set<String> RESERVED_KEYS = Set.of(TXN, PARTITION, VALUE, OFFSET, READS, PARTITIONS, OFFSETS, ERROR);

    private HistoryLineFormat() {
    }

    /** Whether {@code text} can stand alone in a field: not empty, no whitespace, no control character. */
    public static boolean isToken(String text) {
        if (text == null || text.isEmpty()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        return true;
    }

    /** Checks that {@code value} can be written as a sent or read value, and returns it. */
    public static String requireValue(String value) {
        if (!isToken(value) || value.indexOf(',') >= 0) {
            throw new IllegalArgumentException("value not allowed in a history (empty, whitespace or ','): '" + value + "'");
        }
        return value;
    }

    /** The line for {@code event}, without its line break. */
    public static String format(HistoryEvent event) {
        requireToken("process", event.process());
        StringBuilder line = new StringBuilder(64);
        line.append(event.timeNanos()).append('\t').append(event.process()).append('\t')
                .append(event.type().word()).append('\t').append(event.operation().word());
        if (event.txn() != null) {
            requireToken("txn", event.txn());
            if (event.txn().indexOf(',') >= 0) {
                throw new IllegalArgumentException("txn id with ',': '" + event.txn() + "'");
            }
            field(line, TXN, event.txn());
        }
        if (event.partition() != null) {
            field(line, PARTITION, event.partition().toString());
        }
        if (event.value() != null) {
            field(line, VALUE, requireValue(event.value()));
        }
        if (event.offset() != HistoryEvent.NO_OFFSET) {
            field(line, OFFSET, Long.toString(event.offset()));
        }
        if (!event.reads().isEmpty()) {
            field(line, READS, join(event.reads()));
        }
        if (!event.partitions().isEmpty()) {
            field(line, PARTITIONS, join(event.partitions()));
        }
        if (!event.offsets().isEmpty()) {
            field(line, OFFSETS, join(event.offsets()));
        }
        if (event.error() != null) {
            field(line, ERROR, event.error().replaceAll("[\\t\\r\\n]", " "));
        }
        for (Map.Entry<String, String> attribute : event.attributes().entrySet()) {
            String key = attribute.getKey();
            if (RESERVED_KEYS.contains(key) || !isToken(key) || key.indexOf('=') >= 0) {
                throw new IllegalArgumentException("attribute name not allowed in a history: '" + key + "'");
            }
            if (attribute.getValue().matches("(?s).*[\\t\\r\\n].*")) {
                throw new IllegalArgumentException("attribute " + key + " holds a tab or line break");
            }
            field(line, key, attribute.getValue());
        }
        return line.toString();
    }

    /** Parses one line (not a comment) back into its event; the message names what is wrong. */
    public static HistoryEvent parse(String line) {
        String[] columns = line.split("\t", -1);
        if (columns.length < 4) {
            throw new IllegalArgumentException("fewer than 4 tab-separated columns");
        }
        long time;
        try {
            time = Long.parseLong(columns[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("time is not a number: '" + columns[0] + "'", e);
        }
        HistoryEvent event = HistoryEvent.of(columns[1], EventType.fromWord(columns[2]), Operation.fromWord(columns[3]))
                .withTime(time);
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 4; i < columns.length; i++) {
            int equals = columns[i].indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("field is not key=value: '" + columns[i] + "'");
            }
            String key = columns[i].substring(0, equals);
            String text = columns[i].substring(equals + 1);
            event = switch (key) {
                case TXN -> event.withTxn(text);
                case PARTITION -> event.withPartition(LogPartition.parse(text));
                case VALUE -> event.withValue(requireValue(text));
                case OFFSET -> event.withOffset(parseOffset(text));
                case READS -> event.withReads(parseReads(text));
                case PARTITIONS -> event.withPartitions(parsePartitions(text));
                case OFFSETS -> event.withOffsets(parseOffsets(text));
                case ERROR -> event.withError(text);
                default -> {
                    attributes.put(key, text);
                    yield event;
                }
            };
        }
        return attributes.isEmpty() ? event : event.withAttributes(attributes);
    }

    private static void field(StringBuilder line, String key, String text) {
        line.append('\t').append(key).append('=').append(text);
    }

    private static void requireToken(String what, String text) {
        if (!isToken(text)) {
            throw new IllegalArgumentException(what + " not allowed in a history (empty or whitespace): '" + text + "'");
        }
    }

    private static String join(List<?> items) {
        StringBuilder joined = new StringBuilder();
        for (Object item : items) {
            if (joined.length() > 0) {
                joined.append(',');
            }
            joined.append(item);
        }
        return joined.toString();
    }

    private static long parseOffset(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("offset is not a number: '" + text + "'", e);
        }
    }

    private static List<ReadRecord> parseReads(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        List<ReadRecord> reads = new ArrayList<>();
        for (String item : text.split(",")) {
            String[] parts = item.split(":", 3);
            if (parts.length != 3) {
                throw new IllegalArgumentException("read is not topic-partition:offset:value: '" + item + "'");
            }
            reads.add(new ReadRecord(LogPartition.parse(parts[0]), parseOffset(parts[1]), parts[2]));
        }
        return reads;
    }

    private static List<LogPartition> parsePartitions(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        List<LogPartition> partitions = new ArrayList<>();
        for (String item : text.split(",")) {
            partitions.add(LogPartition.parse(item));
        }
        return partitions;
    }

    private static List<PartitionOffset> parseOffsets(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        List<PartitionOffset> offsets = new ArrayList<>();
        for (String item : text.split(",")) {
            int colon = item.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("position is not topic-partition:offset: '" + item + "'");
            }
            offsets.add(new PartitionOffset(LogPartition.parse(item.substring(0, colon)), parseOffset(item.substring(colon + 1))));
        }
        return offsets;
    }
}
