package dev.spool.broker.config;

import dev.spool.log.LogConfigKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Stateless: writes CONFIGURATION.md from the declarations of {@link BrokerConfig}: every setting with its type,
 * default, valid values and doc. {@code ConfigurationDocTest} fails when the committed file differs from what
 * this writes.
 */
public final class ConfigurationDoc {

    private ConfigurationDoc() {
    }

    /** {@code ConfigurationDoc FILE}: (re)writes FILE, the repository's CONFIGURATION.md. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ConfigurationDoc FILE");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), render(), StandardCharsets.UTF_8);
    }

    /** The whole document. */
    public static String render() {
        Map<String, String> defaults = BrokerConfigLayers.declaredDefaults();
        StringBuilder out = new StringBuilder();
        out.append("# Spool configuration\n\n")
                .append("Generated from the declarations in `broker/src/main/java/dev/spool/broker/config/BrokerConfig.java`\n")
                .append("by `ConfigurationDoc`; do not edit by hand. Regenerate with\n")
                .append("`mvn -B -o -pl broker test -Dtest=ConfigurationDocTest -Dspool.writeConfigurationDoc=true`.\n\n")
                .append("Settings go in a Kafka-style `server.properties` (`bin/spool server --config server.properties`)\n")
                .append("or on the command line (`--override name=value`, which wins over the file). Names and defaults are\n")
                .append("Kafka's. A name Spool does not know is logged as a warning and ignored; a value that is not valid\n")
                .append("stops start-up with a message naming the setting and the value.\n\n")
                .append("## Broker settings\n\n")
                .append("| name | type | default | valid values | description |\n")
                .append("| --- | --- | --- | --- | --- |\n");
        for (ConfigKey<?> key : BrokerConfig.ALL) {
            row(out, key.name(), key.type(), key.defaultValue(), key.validator().describe(), key.doc());
        }
        out.append("\n## Topic defaults\n\n")
                .append("Each sets the default of a topic config for topics that do not override it; where several set the\n")
                .append("same topic config, the first one set in this order wins (for example `log.retention.ms`, then\n")
                .append("`log.retention.minutes`, then `log.retention.hours`). These may also be changed at run time\n")
                .append("for the whole cluster or one broker with `kafka-configs --alter --entity-type brokers`.\n\n")
                .append("| name | topic config | type | default | valid values | description |\n")
                .append("| --- | --- | --- | --- | --- | --- |\n");
        for (LogDefaultSetting setting : BrokerConfig.LOG_DEFAULTS) {
            LogConfigKey topicKey = setting.topicKey();
            boolean numeric = topicKey.type == LogConfigKey.Type.INT || topicKey.type == LogConfigKey.Type.LONG
                    || topicKey.type == LogConfigKey.Type.DOUBLE;
            String valid = !numeric ? ""
                    : topicKey.validValues() + (setting.toTopicUnit() == 1 ? "" : " (as " + topicKey.configName + ")");
            out.append("| `").append(setting.brokerName()).append("` | `").append(setting.topicName()).append("` ");
            cells(out, List.of(typeName(setting.type()), code(defaults.get(setting.brokerName())), valid,
                    setting.doc() + " " + topicKey.doc));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String name, ConfigType type, String defaultValue, String valid,
                            String doc) {
        out.append("| `").append(name).append("` ");
        cells(out, List.of(typeName(type), code(defaultValue), valid, doc));
    }

    private static void cells(StringBuilder out, List<String> cells) {
        for (String cell : cells) {
            out.append("| ").append(cell.replace("|", "\\|")).append(' ');
        }
        out.append("|\n");
    }

    private static String code(String value) {
        if (value == null) {
            return "(none)";
        }
        return value.isEmpty() ? "\"\"" : "`" + value + "`";
    }

    private static String typeName(ConfigType type) {
        return type.name().toLowerCase(java.util.Locale.ROOT);
    }
}
