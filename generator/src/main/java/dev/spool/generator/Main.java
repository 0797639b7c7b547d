package dev.spool.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Generates Spool's message classes from Kafka's JSON message specs.
 *
 * <p>Usage: {@code Main SPEC_DIR OUTPUT_DIR PACKAGE}. Request, response, header, data, metadata and coordinator
 * record specs are generated; the output folder is rewritten only where a file's content changed, so incremental
 * builds stay incremental.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: Main SPEC_DIR OUTPUT_DIR PACKAGE");
            System.exit(2);
        }
        Path specDir = Path.of(args[0]);
        String packageName = args[2];
        Path outDir = Path.of(args[1]).resolve(packageName.replace('.', '/'));
        Files.createDirectories(outDir);
        List<MessageSpec> specs = new ArrayList<>();
        try (Stream<Path> files = Files.list(specDir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                specs.add(SpecParser.parse(file));
            }
        }
        if (specs.isEmpty()) {
            throw new IOException("no message specs in " + specDir);
        }
        MessageGenerator messages = new MessageGenerator(packageName);
        int written = 0;
        for (MessageSpec spec : specs) {
            if (isGenerated(spec)) {
                written += writeIfChanged(outDir.resolve(spec.className() + ".java"), messages.generate(spec));
            }
        }
        if (specs.stream().anyMatch(spec -> "request".equals(spec.type()))) {
            written += writeIfChanged(outDir.resolve("ApiKey.java"), new ApiKeyGenerator(packageName).generate(specs));
        }
        if (specs.stream().anyMatch(spec -> "metadata".equals(spec.type()))) {
            written += writeIfChanged(outDir.resolve("MetadataRecordType.java"),
                    new RecordTypeGenerator(packageName).generate(specs));
        }
        System.out.println("spool generator: " + specs.size() + " specs, " + written + " files written to " + outDir);
    }

    private static boolean isGenerated(MessageSpec spec) {
        return switch (spec.type()) {
            case "request", "response", "header", "data", "metadata", "coordinator-key", "coordinator-value" -> true;
            default -> false;
        };
    }

    private static int writeIfChanged(Path file, String content) throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (Files.exists(file) && java.util.Arrays.equals(Files.readAllBytes(file), bytes)) {
            return 0;
        }
        Files.write(file, bytes);
        return 1;
    }
}
