package dev.spool.broker.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Not thread-safe (one instance per invocation): the options a command takes a node's settings with, a
 * server.properties file and overrides that win over it (Kafka's property names), mixed into {@code server} and
 * {@code format}.
 */
final class SettingsOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "A server.properties file.")
    Path configFile;

    @Option(names = "--override", paramLabel = "KEY=VALUE", description = "A setting that wins over the file; repeatable.")
    List<String> overrides = new ArrayList<>();

    /** The settings: the file's, then the overrides over them; a usage error when the file or an override is bad. */
    Map<String, String> properties() {
        try {
            return ServerSettings.read(configFile, overrides);
        } catch (IOException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
