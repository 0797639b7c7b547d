package dev.spool.broker.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Not thread-safe (one instance per invocation): {@code spool server [--config FILE] [--override key=value]...}:
 * runs one broker in the foreground until SIGTERM or SIGINT. Settings are Kafka's property names; overrides win
 * over the file.
 */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a broker in the foreground until SIGTERM or Ctrl-C.",
            "Settings have Kafka's names (see CONFIGURATION.md); --override wins over --config."})
public final class ServerCommand implements Callable<Integer> {

    @Mixin
    SettingsOptions settings;

    @Override
    public Integer call() {
        return ServerRun.run(properties(), settings.spec.commandLine().getErr());
    }

    /** The settings: the file's, then the overrides over them. */
    Map<String, String> properties() {
        return settings.properties();
    }
}
