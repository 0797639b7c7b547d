package dev.spool.it.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Many threads appending to one history; reading it back, also after a kill mid-line. */
class HistoryWriterTest {

    @TempDir
    Path directory;

    @Test
    void eventsFromManyThreadsAreAllReadBackWholeInTheOrderEachThreadWroteThem() throws Exception {
        Path file = directory.resolve("history.tsv");
        int threads = 8;
        int eventsPerThread = 500;
        try (HistoryWriter writer = HistoryWriter.create(file)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                ClientHistory client = writer.client("p" + t);
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < eventsPerThread; i++) {
                        client.sendAcknowledged(null, LogPartition.parse("jt-0"), client.process() + "-" + i, i);
                    }
                });
                thread.start();
                clients.add(thread);
            }
            start.countDown();
            for (Thread thread : clients) {
                thread.join();
            }
            assertThat(writer.events()).isEqualTo((long) threads * eventsPerThread);
        }

        List<HistoryEvent> events = HistoryReader.read(file);
        assertThat(events).hasSize(threads * eventsPerThread);
        Map<String, Long> nextByProcess = new HashMap<>();
        long previousTime = -1;
        for (HistoryEvent event : events) {
            long expected = nextByProcess.getOrDefault(event.process(), 0L);
            assertThat(event.value()).isEqualTo(event.process() + "-" + expected);
            assertThat(event.offset()).isEqualTo(expected);
            nextByProcess.put(event.process(), expected + 1);
            assertThat(event.timeNanos()).isGreaterThanOrEqualTo(previousTime);
            previousTime = event.timeNanos();
        }
    }

    @Test
    void writerStampsTimeSinceItsCreation() throws IOException {
        AtomicLong clock = new AtomicLong(5_000);
        Path file = directory.resolve("timed.tsv");
        try (HistoryWriter writer = HistoryWriter.create(file, clock::get)) {
            clock.set(7_500);
            assertThat(writer.client("c0").polled(null, List.of()).timeNanos()).isEqualTo(2_500);
        }
        assertThat(Files.readAllLines(file)).containsExactly(HistoryLineFormat.HEADER, "2500\tc0\tok\tpoll");
    }

    @Test
    void lineTornByAKillAtTheEndIsDroppedAndEverythingBeforeIsKept() throws IOException {
        Path file = directory.resolve("killed.tsv");
        try (HistoryWriter writer = HistoryWriter.create(file)) {
            writer.client("p0").sendInvoked(null, LogPartition.parse("jt-0"), "1");
            writer.client("p0").sendAcknowledged(null, LogPartition.parse("jt-0"), "1", 0);
        }
        Files.writeString(file, "77\tp0\tok\tsend\tpartition=jt-0\tval", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        List<HistoryEvent> events = HistoryReader.read(file);

        assertThat(events).extracting(HistoryEvent::type).containsExactly(EventType.INVOKE, EventType.OK);
    }

    @Test
    void malformedLineInsideTheFileIsAnErrorNamingTheFileAndLine() throws IOException {
        Path file = directory.resolve("bad.tsv");
        Files.writeString(file, HistoryLineFormat.HEADER + "\n1\tp0\tok\tsend\toffset=x\n2\tc0\tok\tpoll\n");

        assertThatThrownBy(() -> HistoryReader.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining(file + ":2:").hasMessageContaining("offset is not a number");
    }

    @Test
    void recordingAfterCloseIsRefused() throws IOException {
        HistoryWriter writer = HistoryWriter.create(directory.resolve("closed.tsv"));
        writer.close();

        assertThatThrownBy(() -> writer.client("p0").polled(null, List.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void eventThatCannotBeWrittenLeavesTheFileUntouched() throws IOException {
        Path file = directory.resolve("refused.tsv");
        try (HistoryWriter writer = HistoryWriter.create(file)) {
            assertThatThrownBy(() -> writer.client("p0").sendInvoked(null, null, "has space"))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(writer.events()).isZero();
        }
        assertThat(Files.readAllLines(file)).containsExactly(HistoryLineFormat.HEADER);
    }
}
