package dev.spool.broker;

import dev.spool.broker.cli.QuickServerLaunch;
import dev.spool.broker.cli.SpoolCommand;
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
        OptionalInt serverExit = QuickServerLaunch.run(args);
        System.exit(serverExit.isPresent() ? serverExit.getAsInt() : SpoolCommand.commandLine().execute(args));
    }
}
