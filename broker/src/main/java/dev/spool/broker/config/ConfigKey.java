package dev.spool.broker.config;

import java.util.function.Function;

/**
 * The declaration of one setting: Kafka's name, its type (as a parser), its default and its doc.
 * Every setting is declared once, in {@link BrokerConfig}. Immutable.
 *
 * @param defaultValue the default in the form a properties file would hold it, or null for none
 * @param type         the type DescribeConfigs reports
 */
public record ConfigKey<T>(String name, Function<String, T> parser, String defaultValue, String doc, ConfigType type) {

    public static ConfigKey<String> string(String name, String defaultValue, String doc) {
        return new ConfigKey<>(name, value -> value, defaultValue, doc, ConfigType.STRING);
    }

    /** A comma-separated list, kept as its text (Kafka's LIST type). */
    public static ConfigKey<String> list(String name, String defaultValue, String doc) {
        return new ConfigKey<>(name, value -> value, defaultValue, doc, ConfigType.LIST);
    }

    public static ConfigKey<Boolean> bool(String name, boolean defaultValue, String doc) {
        return new ConfigKey<>(name, value -> {
            String trimmed = value.trim();
            if (!trimmed.equalsIgnoreCase("true") && !trimmed.equalsIgnoreCase("false")) {
                throw new ConfigException("invalid value '" + value + "' for " + name + ": not true or false");
            }
            return Boolean.parseBoolean(trimmed);
        }, String.valueOf(defaultValue), doc, ConfigType.BOOLEAN);
    }

    public static ConfigKey<Integer> integer(String name, int defaultValue, String doc) {
        return new ConfigKey<>(name, value -> parseNumber(name, value, Integer::parseInt), String.valueOf(defaultValue), doc,
                ConfigType.INT);
    }

    public static ConfigKey<Long> longValue(String name, long defaultValue, String doc) {
        return new ConfigKey<>(name, value -> parseNumber(name, value, Long::parseLong), String.valueOf(defaultValue), doc,
                ConfigType.LONG);
    }

    private static <N> N parseNumber(String name, String value, Function<String, N> parse) {
        try {
            return parse.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException("invalid value '" + value + "' for " + name + ": not a number");
        }
    }

    /** The typed value from a raw value, or from the default when raw is null. */
    public T parse(String raw) {
        String value = raw != null ? raw : defaultValue;
        return value == null ? null : parser.apply(value);
    }
}
