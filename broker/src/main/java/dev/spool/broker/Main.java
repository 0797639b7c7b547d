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
        // The server's logging backend, also when started without bin/spool (which names it too); before any
        // logger exists. An explicit -Dslf4j.provider wins.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", ConsoleLoggerProvider.class.getName());
        }
        OptionalInt serverExit = QuickServerLaunch.run(args);
        System.exit(serverExit.isPresent() ? serverExit.getAsInt() : SpoolCommand.commandLine().execute(args));
    }
}
