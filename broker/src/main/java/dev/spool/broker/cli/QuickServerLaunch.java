package dev.spool.broker.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Stateless: starts {@code spool server} without building the picocli command model, which costs about 0.1 s of a
 * start-up that is otherwise 0.3-0.4 s. It takes only well-formed command lines ({@code server} followed by
 * {@code --config FILE} at most once and any {@code --override KEY=VALUE}, either with a space or an equals
 * sign) whose settings can be read; anything else (help, other commands, a usage error) is left to
 * {@link SpoolCommand}, which then parses and reports it as always.
 */
public final class QuickServerLaunch {

    private QuickServerLaunch() {
    }

    /** The server's exit code once it stops, or empty when {@code args} are for {@link SpoolCommand} to handle. */
    public static OptionalInt run(String[] args) {
        Map<String, String> properties = settings(args);
        if (properties == null) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(ServerRun.run(properties, new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    /** The server settings these arguments give, or null when they are not a well-formed server command line. */
    static Map<String, String> settings(String[] args) {
        if (args.length == 0 || !args[0].equals("server")) {
            return null;
        }
        String configFile = null;
        List<String> overrides = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String option = args[i];
            String value;
            int equals = option.indexOf('=');
            if (option.startsWith("--") && equals > 0) {
                value = option.substring(equals + 1);
                option = option.substring(0, equals);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return null;
            }
            if (option.equals("--config") && configFile == null) {
                configFile = value;
            } else if (option.equals("--override")) {
                overrides.add(value);
            } else {
                return null;
            }
        }
        try {
            return ServerSettings.read(configFile == null ? null : Path.of(configFile), overrides);
        } catch (IOException | IllegalArgumentException usageError) { // InvalidPathException too
            return null; // SpoolCommand reports it, with the usage
        }
    }
}
