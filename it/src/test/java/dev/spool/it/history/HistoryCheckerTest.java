package dev.spool.it.history;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each anomaly on a small hand-built history, and the histories that must pass. */
class HistoryCheckerTest {

    private static final String P0 = "jt-0";
    private static final String P1 = "jt-1";
    /** A consume-transform-produce client's settings: a consumer group and a transactional id. */
    private static final String[] COPIER = {"group.id", "copiers", "transactional.id", "copier",
            "isolation.level", "read_committed"};

    private static Anomaly onlyExample(CheckResult result, AnomalyKind kind) {
        assertThat(result.count(kind)).as(result.summary()).isEqualTo(1);
        return result.examples(kind).get(0);
    }

    @Test
    void historyWhereEveryAcknowledgedValueIsReadInOrderIsValid() {
        CheckResult result = new HistoryBuilder()
                .open("p0", "enable.idempotence", "true").open("c0", "isolation.level", "read_committed")
                .send("p0", P0, "a", 0).send("p0", P1, "b", 0).send("p0", P0, "c", 1)
                .assign("c0", P0, P1)
                .poll("c0", P0 + ":0:a", P1 + ":0:b").poll("c0", P0 + ":1:c")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
        for (AnomalyKind kind : AnomalyKind.values()) {
            assertThat(result.count(kind)).as(kind.label()).isZero();
        }
        assertThat(result.totals().valuesAcknowledged()).isEqualTo(3);
        assertThat(result.totals().recordsRead()).isEqualTo(3);
        assertThat(result.summary()).startsWith("VALID").contains("acknowledged 3");
    }

    @Test
    void acknowledgedValueBelowTheHighestReadOffsetThatNobodyReadIsLost() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p0", P0, "b", 1).send("p0", P0, "c", 2)
                .poll("c0", P0 + ":0:a").poll("c1", P0 + ":2:c")
                .check();

        Anomaly lost = onlyExample(result, AnomalyKind.LOST_WRITE);
        assertThat(lost.value()).isEqualTo("b");
        assertThat(lost.partition()).isEqualTo(LogPartition.parse(P0));
        assertThat(lost.offset()).isEqualTo(1);
        assertThat(lost.detail()).contains("jt-0@1", "read up to offset 2");
        assertThat(result.valid()).isFalse();
        assertThat(result.summary()).startsWith("INVALID").contains("lost-write: value b");
    }

    @Test
    void acknowledgedValueAboveTheHighestReadOffsetIsUnseenNotLost() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p0", P0, "b", 1)
                .poll("c0", P0 + ":0:a")
                .check();

        assertThat(onlyExample(result, AnomalyKind.UNSEEN).value()).isEqualTo("b");
        assertThat(result.count(AnomalyKind.LOST_WRITE)).isZero();
        assertThat(result.valid()).isTrue();
    }

    @Test
    void oneOffsetWithTwoValuesIsInconsistent() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p1", P0, "b", 0)
                .poll("c0", P0 + ":0:a")
                .check();

        Anomaly inconsistent = onlyExample(result, AnomalyKind.INCONSISTENT_OFFSET);
        assertThat(inconsistent.offset()).isZero();
        assertThat(inconsistent.detail()).contains("jt-0@0 holds 2 values", " a (", " b (");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void valueOfAnIdempotentProducerSentOnceAtTwoOffsetsIsADuplicate() {
        CheckResult result = new HistoryBuilder()
                .open("p0", "enable.idempotence", "true")
                .send("p0", P0, "a", 0)
                .poll("c0", P0 + ":0:a", P0 + ":1:a")
                .check();

        Anomaly duplicate = onlyExample(result, AnomalyKind.DUPLICATE);
        assertThat(duplicate.value()).isEqualTo("a");
        assertThat(duplicate.offset()).isEqualTo(1);
        assertThat(duplicate.detail()).contains("sent once by p0 (idempotent)", "jt-0@0", "jt-0@1");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void duplicateFromAProducerWithoutIdempotenceIsAllowed() {
        CheckResult result = new HistoryBuilder()
                .open("p0", "enable.idempotence", "false")
                .send("p0", P0, "a", 0)
                .poll("c0", P0 + ":0:a", P0 + ":1:a")
                .check();

        assertThat(result.count(AnomalyKind.DUPLICATE)).isZero();
        assertThat(onlyExample(result, AnomalyKind.ALLOWED_DUPLICATE).detail()).contains("(not idempotent)");
        assertThat(result.valid()).isTrue();
    }

    @Test
    void duplicateOfAValueTheWorkloadSentAgainAfterATimeoutIsAllowed() {
        CheckResult result = new HistoryBuilder()
                .invoke("p0", null, P0, "a").ended("p0", EventType.INFO, P0, "a")
                .invoke("p0", null, P0, "a").ack("p0", P0, "a", 1)
                .poll("c0", P0 + ":0:a", P0 + ":1:a")
                .check();

        assertThat(result.count(AnomalyKind.DUPLICATE)).isZero();
        assertThat(onlyExample(result, AnomalyKind.ALLOWED_DUPLICATE).detail()).contains("sent 2 times");
    }

    @Test
    void idempotentProducersValueWrittenBelowOneItSentEarlierIsReordered() {
        CheckResult result = new HistoryBuilder()
                .invoke("p0", null, P0, "a").invoke("p0", null, P0, "b")
                .ack("p0", P0, "b", 0).ack("p0", P0, "a", 1)
                .poll("c0", P0 + ":0:b", P0 + ":1:a")
                .check();

        Anomaly reordered = onlyExample(result, AnomalyKind.NONMONOTONIC_SEND);
        assertThat(reordered.value()).isEqualTo("b");
        assertThat(reordered.detail()).contains("p0 sent b after a", "jt-0@0", "jt-0@1");
    }

    @Test
    void producerWithSeveralRequestsInFlightAndNoIdempotenceMayReorder() {
        CheckResult result = new HistoryBuilder()
                .open("p0", "enable.idempotence", "false", "max.in.flight.requests.per.connection", "5")
                .invoke("p0", null, P0, "a").invoke("p0", null, P0, "b")
                .ack("p0", P0, "b", 0).ack("p0", P0, "a", 1)
                .poll("c0", P0 + ":0:b", P0 + ":1:a")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
    }

    @Test
    void sendsToDifferentPartitionsAreNotOrderedAgainstEachOther() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 5).send("p0", P1, "b", 0)
                .poll("c0", P0 + ":5:a", P1 + ":0:b")
                .check();

        assertThat(result.count(AnomalyKind.NONMONOTONIC_SEND)).isZero();
    }

    @Test
    void consumerReadingAnOffsetAgainWithoutASeekIsNonmonotonic() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p0", P0, "b", 1)
                .poll("c0", P0 + ":0:a", P0 + ":1:b").poll("c0", P0 + ":1:b")
                .check();

        Anomaly nonmonotonic = onlyExample(result, AnomalyKind.NONMONOTONIC_POLL);
        assertThat(nonmonotonic.offset()).isEqualTo(1);
        assertThat(nonmonotonic.detail()).contains("c0 read jt-0@1", "after jt-0@1");
    }

    @Test
    void consumerReadingAgainAfterASeekOrAnAssignIsMonotonic() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p0", P0, "b", 1)
                .poll("c0", P0 + ":0:a", P0 + ":1:b").seek("c0", P0, 0).poll("c0", P0 + ":0:a")
                .assign("c0", P0).poll("c0", P0 + ":1:b")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
    }

    @Test
    void consumerJumpingOverAnAcknowledgedValueSkippedIt() {
        CheckResult result = new HistoryBuilder()
                .send("p0", P0, "a", 0).send("p0", P0, "b", 1).send("p0", P0, "c", 2)
                .poll("c0", P0 + ":0:a").poll("c0", P0 + ":2:c")
                .poll("c1", P0 + ":1:b")
                .check();

        Anomaly skipped = onlyExample(result, AnomalyKind.SKIPPED_OFFSET);
        assertThat(skipped.value()).isEqualTo("b");
        assertThat(skipped.offset()).isEqualTo(1);
        assertThat(skipped.detail()).contains("c0 read jt-0@0 then jt-0@2");
        assertThat(result.count(AnomalyKind.LOST_WRITE)).isZero();
    }

    @Test
    void consumerJumpingOverAbortedRecordsAndTransactionMarkersSkippedNothing() {
        CheckResult result = new HistoryBuilder()
                .open("t0", "transactional.id", "t")
                .send("p0", P0, "a", 0)
                .txnSend("t0", "t0-1", P0, "x", 1).abort("t0", "t0-1") // the abort marker is at 2
                .send("p0", P0, "c", 3)
                .poll("c0", P0 + ":0:a", P0 + ":3:c")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
        assertThat(result.totals().valuesByStatus().get(SendStatus.ABORTED)).isEqualTo(1);
    }

    @Test
    void valueOfAnAbortedTransactionReadByAReadCommittedConsumerIsAnAbortedRead() {
        CheckResult result = new HistoryBuilder()
                .open("t0", "transactional.id", "t")
                .txnSend("t0", "t0-1", P0, "x", 0).abort("t0", "t0-1")
                .poll("c0", P0 + ":0:x")
                .check();

        Anomaly aborted = onlyExample(result, AnomalyKind.ABORTED_READ);
        assertThat(aborted.value()).isEqualTo("x");
        assertThat(aborted.detail()).contains("aborted transaction(s) [t0-1]");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void readUncommittedConsumerMayReadAbortedValues() {
        CheckResult result = new HistoryBuilder()
                .open("c0", "isolation.level", "read_uncommitted")
                .txnSend("t0", "t0-1", P0, "x", 0).abort("t0", "t0-1")
                .poll("c0", P0 + ":0:x")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
    }

    @Test
    void valueWhoseSendFailedDefinitelyMustNeverBeRead() {
        CheckResult result = new HistoryBuilder()
                .open("c0", "isolation.level", "read_uncommitted")
                .invoke("p0", null, P0, "a").ended("p0", EventType.FAIL, P0, "a")
                .poll("c0", P0 + ":0:a")
                .check();

        assertThat(onlyExample(result, AnomalyKind.ABORTED_READ).detail()).contains("every send of it failed");
    }

    @Test
    void indeterminateSendMayBeReadOrNot() {
        CheckResult result = new HistoryBuilder()
                .invoke("p0", null, P0, "a").ended("p0", EventType.INFO, P0, "a")
                .invoke("p0", null, P0, "b") // never answered
                .invoke("p0", null, P0, "c").ended("p0", EventType.INFO, P0, "c")
                .send("p0", P0, "d", 2)
                .poll("c0", P0 + ":0:a", P0 + ":2:d")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
        assertThat(result.count(AnomalyKind.SKIPPED_OFFSET)).isZero();
        assertThat(result.totals().valuesByStatus().get(SendStatus.INDETERMINATE)).isEqualTo(3);
    }

    @Test
    void valueNobodySentOrReadBeforeItWasSentIsUnexpected() {
        CheckResult neverSent = new HistoryBuilder().poll("c0", P0 + ":0:z").check();
        CheckResult readTooEarly = new HistoryBuilder().poll("c0", P0 + ":0:a").send("p0", P0, "a", 0).check();

        assertThat(onlyExample(neverSent, AnomalyKind.UNEXPECTED_READ).detail()).contains("no send carried it");
        assertThat(onlyExample(readTooEarly, AnomalyKind.UNEXPECTED_READ).detail()).contains("before its send");
    }

    @Test
    void inputsProcessedOnceByCommittedTransactionsAreValidWhateverAbortedOnesRead() {
        CheckResult result = new HistoryBuilder().open("c", COPIER)
                .send("p", P0, "a", 0).send("p", P0, "b", 1)
                .txnPoll("c", "T1", P0 + ":0:a", P0 + ":1:b").txnSend("c", "T1", P1, "copy-a", 0)
                .txnSend("c", "T1", P1, "copy-b", 1).abort("c", "T1").seek("c", P0, 0)
                .txnPoll("c", "T2", P0 + ":0:a", P0 + ":1:b").txnSend("c", "T2", P1, "copy-a", 3)
                .txnSend("c", "T2", P1, "copy-b", 4).commit("c", "T2")
                .poll("r", P0 + ":0:a", P0 + ":1:b", P1 + ":3:copy-a", P1 + ":4:copy-b")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
        assertThat(result.count(AnomalyKind.DOUBLE_PROCESSED) + result.count(AnomalyKind.UNPROCESSED)).isZero();
    }

    @Test
    void anInputReadByTwoCommittedTransactionsIsDoubleProcessed() {
        CheckResult result = new HistoryBuilder().open("c", COPIER)
                .send("p", P0, "a", 0)
                .txnPoll("c", "T1", P0 + ":0:a").txnSend("c", "T1", P1, "copy-a", 0).commit("c", "T1")
                .seek("c", P0, 0).txnPoll("c", "T2", P0 + ":0:a").txnSend("c", "T2", P1, "copy-a", 1).commit("c", "T2")
                .poll("r", P0 + ":0:a", P1 + ":0:copy-a", P1 + ":1:copy-a")
                .check();

        assertThat(onlyExample(result, AnomalyKind.DOUBLE_PROCESSED).detail()).contains("[T1, T2]");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void anInputSkippedPastByTheCommittedTransactionsIsUnprocessed() {
        // T2's offsets moved past b although T2 aborted (what a coordinator applying aborted offsets does).
        CheckResult result = new HistoryBuilder().open("c", COPIER)
                .send("p", P0, "a", 0).send("p", P0, "b", 1).send("p", P0, "c", 2)
                .txnPoll("c", "T1", P0 + ":0:a").txnSend("c", "T1", P1, "copy-a", 0).commit("c", "T1")
                .txnPoll("c", "T2", P0 + ":1:b").txnSend("c", "T2", P1, "copy-b", 1).abort("c", "T2")
                .txnPoll("c", "T3", P0 + ":2:c").txnSend("c", "T3", P1, "copy-c", 3).commit("c", "T3")
                .poll("r", P0 + ":0:a", P0 + ":1:b", P0 + ":2:c", P1 + ":0:copy-a", P1 + ":3:copy-c")
                .check();

        Anomaly unprocessed = onlyExample(result, AnomalyKind.UNPROCESSED);
        assertThat(unprocessed.offset()).isEqualTo(1);
        assertThat(unprocessed.value()).isEqualTo("b");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void transactionsThatEachReadTheOtherFormAG1cCycle() {
        CheckResult result = new HistoryBuilder()
                .txnSend("t1", "T1", P0, "x", 0).txnSend("t2", "T2", P1, "y", 0)
                .txnPoll("t1", "T1", P1 + ":0:y").txnPoll("t2", "T2", P0 + ":0:x")
                .commit("t1", "T1").commit("t2", "T2")
                .check();

        Anomaly cycle = onlyExample(result, AnomalyKind.G1C);
        assertThat(cycle.detail()).contains("[T1, T2]", "wr: T2 read x", "wr: T1 read y");
        assertThat(result.valid()).isFalse();
    }

    @Test
    void transactionsThatEachReadPastTheOthersWriteFormAG1cCycle() {
        // T1 read jt-1 past T2's write and T2 read jt-0 past T1's: each ended before the other.
        CheckResult result = new HistoryBuilder()
                .txnSend("t1", "T1", P0, "x", 0).txnSend("t2", "T2", P1, "y", 0)
                .txnSend("t3", "T3", P0, "u", 1).txnSend("t3", "T3", P1, "w", 1).commit("t3", "T3")
                .txnPoll("t1", "T1", P1 + ":1:w").txnPoll("t2", "T2", P0 + ":1:u")
                .commit("t1", "T1").commit("t2", "T2")
                .poll("c0", P0 + ":0:x", P0 + ":1:u", P1 + ":0:y", P1 + ":1:w")
                .check();

        Anomaly cycle = onlyExample(result, AnomalyKind.G1C);
        assertThat(cycle.detail()).contains("[T1, T2]", "read past");
    }

    @Test
    void transactionReadingPastItsOwnOpenWriteIsAG1cCycle() {
        CheckResult result = new HistoryBuilder()
                .txnSend("t0", "T0", P0, "a", 1).commit("t0", "T0")
                .txnSend("t1", "T1", P0, "x", 2)
                .txnSend("t2", "T2", P0, "b", 3).commit("t2", "T2")
                .txnPoll("t1", "T1", P0 + ":3:b").commit("t1", "T1")
                .poll("c0", P0 + ":1:a", P0 + ":2:x", P0 + ":3:b")
                .check();

        assertThat(onlyExample(result, AnomalyKind.G1C).detail()).contains("T1", "wrote jt-0@2", "read past");
    }

    @Test
    void interleavedTransactionsFormAnAllowedG0CycleAndNoG1c() {
        // T1 and T2 interleave in jt-0; T1 commits; T2 then reads T1's value and commits. Correct in Kafka.
        CheckResult result = new HistoryBuilder()
                .txnSend("t1", "T1", P0, "a", 0).txnSend("t2", "T2", P0, "b", 1).txnSend("t1", "T1", P0, "c", 2)
                .commit("t1", "T1")
                .txnPoll("t2", "T2", P0 + ":0:a").commit("t2", "T2")
                .poll("c0", P0 + ":0:a", P0 + ":1:b", P0 + ":2:c")
                .check();

        assertThat(result.count(AnomalyKind.G1C)).as(result.summary()).isZero();
        assertThat(onlyExample(result, AnomalyKind.G0).detail()).contains("[T1, T2]", "ww jt-0@");
        assertThat(result.valid()).isTrue();
    }

    @Test
    void transactionOfUnknownOutcomeWithOneValueReadCommittedOwesItsOtherValues() {
        CheckResult result = new HistoryBuilder()
                .txnSend("t0", "T0", P0, "a", 0).txnSend("t0", "T0", P0, "b", 1)
                .transaction("t0", Operation.TXN_COMMIT, EventType.INFO, "T0")
                .send("p0", P0, "c", 3)
                .poll("c0", P0 + ":0:a").poll("c1", P0 + ":3:c")
                .check();

        assertThat(result.totals().transactionsByOutcome().get(TransactionOutcome.COMMITTED)).isEqualTo(1);
        assertThat(onlyExample(result, AnomalyKind.LOST_WRITE).value()).isEqualTo("b");
    }

    @Test
    void transactionOfUnknownOutcomeNobodyReadOwesNothing() {
        CheckResult result = new HistoryBuilder()
                .txnSend("t0", "T0", P0, "a", 0)
                .transaction("t0", Operation.TXN_COMMIT, EventType.INFO, "T0")
                .send("p0", P0, "c", 2)
                .poll("c0", P0 + ":2:c")
                .check();

        assertThat(result.valid()).as(result.summary()).isTrue();
        assertThat(result.count(AnomalyKind.LOST_WRITE)).isZero();
    }

    @Test
    void historyThatContradictsItselfIsRefusedWithTheEvent() {
        HistoryBuilder bothEndings = new HistoryBuilder().commit("t0", "T0").abort("t0", "T0");
        HistoryBuilder okWithoutOffset = new HistoryBuilder()
                .add(HistoryEvent.of("p0", EventType.OK, Operation.SEND).withValue("a"));

        assertThatThrownBy(bothEndings::check).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("T0 both committed and aborted");
        assertThatThrownBy(okWithoutOffset::check).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("send ok of value a without partition or offset");
    }

    @Test
    void exampleListIsCappedButEveryAnomalyIsCounted() {
        HistoryBuilder history = new HistoryBuilder();
        for (int i = 0; i < 20; i++) {
            history.send("p0", P0, "v" + i, i);
        }
        history.poll("c0", P0 + ":19:v19");
        CheckResult result = HistoryChecker.standard(3).check(history.events());

        assertThat(result.count(AnomalyKind.LOST_WRITE)).isEqualTo(19);
        assertThat(result.examples(AnomalyKind.LOST_WRITE)).hasSize(3);
    }

    @Test
    void commandLineChecksAFileAndExitsOneOnAnomalies(@org.junit.jupiter.api.io.TempDir Path directory) throws IOException {
        Path valid = directory.resolve("valid.tsv");
        Path invalid = directory.resolve("invalid.tsv");
        try (HistoryWriter writer = HistoryWriter.create(valid)) {
            ClientHistory producer = writer.client("p0");
            producer.opened(Map.of("enable.idempotence", true, "acks", "all"));
            producer.sendInvoked(null, LogPartition.parse(P0), "a");
            producer.sendAcknowledged(null, LogPartition.parse(P0), "a", 0);
            writer.client("c0").polled(null, java.util.List.of(ReadRecord.of(P0, 0, "a")));
        }
        Files.writeString(invalid, Files.readString(valid).replace("jt-0:0:a", "jt-0:0:b"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream printOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream printErr = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(HistoryChecker.run(new String[]{valid.toString()}, printOut, printErr)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("VALID", "acknowledged 1");
        assertThat(HistoryChecker.run(new String[]{invalid.toString()}, printOut, printErr)).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("INVALID", "inconsistent-offset", "unexpected-read");
        assertThat(HistoryChecker.run(new String[]{directory.resolve("missing").toString()}, printOut, printErr)).isEqualTo(2);
        assertThat(HistoryChecker.run(new String[0], printOut, printErr)).isEqualTo(2);
    }
}
