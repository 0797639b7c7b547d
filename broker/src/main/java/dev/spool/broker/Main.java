package dev.spool.broker;

import dev.spool.broker.cli.SpoolCommand;

/**
 * Called once, on the main thread: the {@code spool} command ({@code bin/spool}): {@code server}, {@code
 * dump-log}, {@code version}; see {@link SpoolCommand}. Exits with the command's exit code once it returns (a
 * server returns when it has been stopped by SIGTERM or SIGINT).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(SpoolCommand.commandLine().execute(args));
    }
}
