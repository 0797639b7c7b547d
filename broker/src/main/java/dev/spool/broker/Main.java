package dev.spool.broker;

import dev.spool.broker.cli.QuickServerLaunch;
import dev.spool.broker.cli.SpoolCommand;
import dev.spool.broker.logging.ConsoleLoggerProvider;
import java.util.OptionalInt;

/**
 * Called once, on the main thread: the {@code spool} command ({@code bin/spool}): {@code server}, {@code
 * dump-log}, {@code version}; see {@link SpoolCommand}. Exits with the command's exit code once it returns (a
 * server returns when it has been stopped by SIGTERM or SIGINT). A plain {@code server} command line skips the
 * command model (see {@link QuickServerLaunch}).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        processDefault("slf4j.provider", ConsoleLoggerProvider.class.getName());
        // SLF4J says at INFO that it loads the provider named: noise on every start.
        processDefault("slf4j.internal.verbosity", "WARN");
        // Netty's JFR events would start JFR's event machinery at the first buffer allocation, ~0.1 s into the
        // first request.
        processDefault("io.netty.jfr.enabled", "false");
        OptionalInt serverExit = QuickServerLaunch.run(args);
        System.exit(serverExit.isPresent() ? serverExit.getAsInt() : SpoolCommand.commandLine().execute(args));
    }

    /**
     * A system property of the spool process, set before any class that reads it loads, whether or not bin/spool
     * started the JVM; a -D on the command line wins.
     */
    private static void processDefault(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
