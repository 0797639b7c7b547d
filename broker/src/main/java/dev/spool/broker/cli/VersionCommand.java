package dev.spool.broker.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code spool version}: prints the version of Spool and of the Java runtime. Not thread-safe. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version of Spool.")
public final class VersionCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        for (String line : new SpoolVersion().getVersion()) {
            spec.commandLine().getOut().println(line);
        }
        spec.commandLine().getOut().flush();
    }
}
