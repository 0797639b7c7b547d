package dev.spool.broker.cli;

import dev.spool.log.LogFileNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): {@code spool dump-log FILES...}: prints the batches and records
 * of segment files ({@code .log}) and the entries of their indexes ({@code .index}, {@code .timeindex}),
 * checking every index entry against the segment beside it. Exits 1 when a file has invalid bytes or an index
 * entry does not match its segment. Never writes to the files.
 */
@Command(name = "dump-log", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print the batches and records of segment files and verify their indexes.",
            "Reads .log, .index and .timeindex files; never changes them."})
public final class DumpLogCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Segment (.log) or index (.index, .timeindex) files.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--files", split = ",", paramLabel = "FILE",
            description = "The same files, comma-separated, as Kafka's kafka-dump-log takes them.")
    List<Path> kafkaStyleFiles = new ArrayList<>();

    @Option(names = "--print-data-log", description = "Also print each record's key and value.")
    boolean printData;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        List<Path> all = new ArrayList<>(kafkaStyleFiles);
        all.addAll(files);
        if (all.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing FILE: name at least one file");
        }
        boolean allValid = true;
        for (Path file : all) {
            String name = file.getFileName().toString();
            out.println("Dumping " + file);
            if (!Files.isRegularFile(file)) {
                out.println("No such file: " + file);
                allValid = false;
            } else if (name.endsWith(LogFileNames.LOG_SUFFIX)) {
                allValid &= new SegmentDump(out, printData).dump(file);
            } else if (name.endsWith(LogFileNames.INDEX_SUFFIX)) {
                allValid &= new IndexDump(out).dumpOffsetIndex(file);
            } else if (name.endsWith(LogFileNames.TIME_INDEX_SUFFIX)) {
                allValid &= new IndexDump(out).dumpTimeIndex(file);
            } else {
                out.println("Not a segment or index file (.log, .index, .timeindex): " + file);
                allValid = false;
            }
        }
        out.flush();
        return allValid ? 0 : 1;
    }
}
