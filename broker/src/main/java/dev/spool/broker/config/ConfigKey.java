package dev.spool.broker.config;

import java.util.function.Function;

/**
 * Immutable: the declaration of one setting: Kafka's name, its type (as a parser), its default, the rule its
 * value follows and its doc. Every setting is declared once, in {@link BrokerConfig}; CONFIGURATION.md is
 * generated from these declarations ({@link ConfigurationDoc}).
 *
 * @param defaultValue the default in the form a properties file would hold it, or null for none
 * @param type         the type DescribeConfigs reports
 * @param validator    the rule a parsed value must follow
 */
public record ConfigKey<T>(String name, Function<String, T> parser, String defaultValue, String doc, ConfigType type,
                           ConfigValidator<? super T> validator) {

    public static ConfigKey<String> string(String name, String defaultValue, String doc) {
        return new ConfigKey<>(name, value -> value, defaultValue, doc, ConfigType.STRING, ConfigValidator.ANY);
    }

    /** A comma-separated list, kept as its text (Kafka's LIST type). */
    public static ConfigKey<String> list(String name, String defaultValue, String doc) {
        return new ConfigKey<>(name, value -> value, defaultValue, doc, ConfigType.LIST, ConfigValidator.ANY);
    }

    /** A secret (Kafka's PASSWORD type): never in DescribeConfigs' answers or in the start-up log. No default. */
    public static ConfigKey<String> password(String name, String doc) {
        return new ConfigKey<>(name, value -> value, null, doc, ConfigType.PASSWORD, ConfigValidator.ANY);
    }

    public boolean isSensitive() {
        return type == ConfigType.PASSWORD;
    }

    public static ConfigKey<Boolean> bool(String name, boolean defaultValue, String doc) {
        return new ConfigKey<>(name, value -> {
            String trimmed = value.trim();
            if (!trimmed.equalsIgnoreCase("true") && !trimmed.equalsIgnoreCase("false")) {
                throw new ConfigException(invalid(name, value, "not true or false"));
            }
            return Boolean.parseBoolean(trimmed);
        }, String.valueOf(defaultValue), doc, ConfigType.BOOLEAN, ConfigValidator.ANY);
    }

    public static ConfigKey<Integer> integer(String name, int defaultValue, String doc) {
        return new ConfigKey<>(name, value -> parseNumber(name, value, Integer::parseInt), String.valueOf(defaultValue), doc,
                ConfigType.INT, ConfigValidator.ANY);
    }

    public static ConfigKey<Long> longValue(String name, long defaultValue, String doc) {
        return new ConfigKey<>(name, value -> parseNumber(name, value, Long::parseLong), String.valueOf(defaultValue), doc,
                ConfigType.LONG, ConfigValidator.ANY);
    }

    /** This declaration with a rule its values must follow. */
    public ConfigKey<T> validatedBy(ConfigValidator<? super T> rule) {
        return new ConfigKey<>(name, parser, defaultValue, doc, type, rule);
    }

    private static <N> N parseNumber(String name, String value, Function<String, N> parse) {
        try {
            return parse.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(invalid(name, value, "not a number"));
        }
    }

    /** The message of a refused value: it names the setting, the value and the reason. */
    static String invalid(String name, String value, String reason) {
        return "invalid value '" + value + "' for " + name + ": " + reason;
    }

    /** The typed value from a raw value, or from the default when raw is null; checked by the validator. */
    public T parse(String raw) {
        String value = raw != null ? raw : defaultValue;
        if (value == null) {
            return null;
        }
        T parsed = parser.apply(value);
        String problem = validator.problem(parsed);
        if (problem != null) {
            throw new ConfigException(invalid(name, value, problem));
        }
        return parsed;
    }
}
