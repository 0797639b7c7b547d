package dev.spool.it.history;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each kind of event written as one line and parsed back to itself; what the format refuses. */
class HistoryLineFormatTest {

    private static final LogPartition P0 = LogPartition.parse("jepsen-topic-0");

    private static void assertRoundTrip(HistoryEvent event) {
        String line = HistoryLineFormat.format(event);
        assertThat(line).doesNotContain("\n");
        assertThat(HistoryLineFormat.parse(line)).isEqualTo(event);
    }

    @Test
    void everyKindOfEventParsesBackToItself() {
        assertRoundTrip(HistoryEvent.of("p0", EventType.OK, Operation.OPEN).withTime(1)
                .withAttributes(Map.of("enable.idempotence", "true", "acks", "all", "transactional.id", "t-0")));
        assertRoundTrip(HistoryEvent.sendInvoked("p0", null, null, "17").withTime(2));
        assertRoundTrip(HistoryEvent.sendAcknowledged("p0", "t0-3", P0, "17", 4).withTime(3));
        assertRoundTrip(HistoryEvent.sendEnded("p0", EventType.INFO, null, P0, "18", "TimeoutException: Expiring 1 record").withTime(4));
        assertRoundTrip(HistoryEvent.polled("c1", "t0-3", List.of(new ReadRecord(P0, 3, "16"),
                new ReadRecord(LogPartition.parse("other-12"), 4, "key-1:7"))).withTime(5));
        assertRoundTrip(HistoryEvent.polled("c1", null, List.of()).withTime(6));
        assertRoundTrip(HistoryEvent.of("c1", EventType.OK, Operation.ASSIGN).withPartitions(List.of(P0, LogPartition.parse("x-1"))));
        assertRoundTrip(HistoryEvent.of("c1", EventType.OK, Operation.SEEK).withOffsets(List.of(new PartitionOffset(P0, 0))));
        assertRoundTrip(HistoryEvent.of("t0", EventType.FAIL, Operation.TXN_COMMIT).withTxn("t0-3").withError("fenced"));
    }

    @Test
    void lineIsTabSeparatedWithNamedFieldsInAFixedOrder() {
        HistoryEvent event = HistoryEvent.sendAcknowledged("p0", null, P0, "17", 4).withTime(9870);

        assertThat(HistoryLineFormat.format(event)).isEqualTo("9870\tp0\tok\tsend\tpartition=jepsen-topic-0\tvalue=17\toffset=4");
        assertThat(HistoryLineFormat.format(HistoryEvent.polled("c1", null,
                List.of(new ReadRecord(P0, 3, "16"), new ReadRecord(P0, 4, "17"))).withTime(12000)))
                .isEqualTo("12000\tc1\tok\tpoll\treads=jepsen-topic-0:3:16,jepsen-topic-0:4:17");
    }

    @Test
    void errorMessagesLoseOnlyTheirTabsAndLineBreaks() {
        HistoryEvent event = HistoryEvent.sendEnded("p0", EventType.FAIL, null, P0, "1", "first line\n\tsecond=line");

        assertThat(HistoryLineFormat.parse(HistoryLineFormat.format(event)).error()).isEqualTo("first line  second=line");
    }

    @Test
    void valuesThatWouldBreakTheLineAreRefusedBeforeWriting() {
        assertThatThrownBy(() -> HistoryLineFormat.format(HistoryEvent.sendInvoked("p0", null, P0, "two words")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'two words'");
        assertThatThrownBy(() -> new ReadRecord(P0, 1, "a,b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HistoryLineFormat.format(HistoryEvent.sendInvoked("p 0", null, P0, "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("process");
        assertThatThrownBy(() -> HistoryLineFormat.format(HistoryEvent.of("p0", EventType.OK, Operation.OPEN)
                .withAttributes(Map.of("value", "x")))).hasMessageContaining("attribute name");
    }

    @Test
    void malformedLinesAreRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> HistoryLineFormat.parse("12\tp0\tok")).hasMessageContaining("fewer than 4");
        assertThatThrownBy(() -> HistoryLineFormat.parse("x\tp0\tok\tsend")).hasMessageContaining("time is not a number");
        assertThatThrownBy(() -> HistoryLineFormat.parse("1\tp0\tdone\tsend")).hasMessageContaining("unknown event type 'done'");
        assertThatThrownBy(() -> HistoryLineFormat.parse("1\tp0\tok\tsend\toffset=four")).hasMessageContaining("'four'");
        assertThatThrownBy(() -> HistoryLineFormat.parse("1\tc0\tok\tpoll\treads=t-0:1")).hasMessageContaining("topic-partition:offset:value");
    }

    @Test
    void topicPartitionSplitsAtTheLastDash() {
        assertThat(LogPartition.parse("my-topic-12")).isEqualTo(new LogPartition("my-topic", 12));
        assertThatThrownBy(() -> LogPartition.parse("topic")).hasMessageContaining("not a topic-partition");
    }
}
