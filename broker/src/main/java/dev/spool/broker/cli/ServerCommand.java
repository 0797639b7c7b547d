package dev.spool.broker.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): {@code spool server [--config FILE] [--override key=value]...}:
 * runs one broker in the foreground until SIGTERM or SIGINT. Settings are Kafka's property names; overrides win
 * over the file.
 */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a broker in the foreground until SIGTERM or Ctrl-C.",
            "Settings have Kafka's names (see CONFIGURATION.md); --override wins over --config."})
public final class ServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "A server.properties file.")
    Path configFile;

    @Option(names = "--override", paramLabel = "KEY=VALUE", description = "A setting that wins over the file; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
        return ServerRun.run(properties(), spec.commandLine().getErr());
    }

    /** The settings: the file's, then the overrides over them. */
    Map<String, String> properties() {
        try {
            return ServerSettings.read(configFile, overrides);
        } catch (IOException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
