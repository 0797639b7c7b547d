package dev.spool.log.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.tools.DumpLogSegments;

/** What Kafka's DumpLogSegments tool printed, run in this JVM; runs are serialised (they swap System.out/err). */
record DumpLogSegmentsRun(String out, List<String> errLines) {

    static synchronized DumpLogSegmentsRun of(String... args) throws IOException {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(args);
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        List<String> errLines = Arrays.stream(err.toString(StandardCharsets.UTF_8).split("\n"))
                .filter(line -> !line.isBlank()).toList();
        return new DumpLogSegmentsRun(out.toString(StandardCharsets.UTF_8), errLines);
    }
}
