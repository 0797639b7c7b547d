package dev.spool.broker.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): {@code spool}: the command line of Spool, whose subcommands run
 * a broker, dump segment files and print the version. Exit codes: 0 success, 1 failure, 2 usage or configuration
 * error.
 */
@Command(name = "spool", mixinStandardHelpOptions = true, versionProvider = SpoolVersion.class,
        description = "Spool, a Kafka-compatible event streaming broker.",
        subcommands = {ServerCommand.class, FormatCommand.class, DumpLogCommand.class, VersionCommand.class,
            CommandLine.HelpCommand.class})
public final class SpoolCommand implements Runnable {

    /** Exit code of a usage or configuration error (picocli's for bad arguments). */
    public static final int USAGE_ERROR = 2;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: server, format, dump-log or version");
    }

    /** A command line for these commands; tests run it with their own output writers. */
    public static CommandLine commandLine() {
        return new CommandLine(new SpoolCommand());
    }
}
