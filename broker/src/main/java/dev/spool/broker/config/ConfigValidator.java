package dev.spool.broker.config;

import java.util.List;

/**
 * Implementations are immutable and thread-safe: the rule a setting's parsed value must follow, with the words
 * the generated CONFIGURATION.md shows for it.
 *
 * @param <T> the setting's value type
 */
public interface ConfigValidator<T> {

    /** Accepts every value. */
    ConfigValidator<Object> ANY = new ConfigValidator<>() {
        @Override
        public String problem(Object value) {
            return null;
        }

        @Override
        public String describe() {
            return "";
        }
    };

    /** Why {@code value} is not allowed, or null when it is. */
    String problem(T value);

    /** The allowed values in a few words ("at least 0", "one of a, b"), empty when any value is. */
    String describe();

    /** A number no smaller than {@code minimum}. */
    static <N extends Number> ConfigValidator<N> atLeast(long minimum) {
        return between(minimum, Long.MAX_VALUE);
    }

    /** A number from {@code minimum} to {@code maximum}, both included. */
    static <N extends Number> ConfigValidator<N> between(long minimum, long maximum) {
        return new ConfigValidator<>() {
            @Override
            public String problem(N value) {
                long number = value.longValue();
                return number < minimum || number > maximum ? "must be " + describe() : null;
            }

            @Override
            public String describe() {
                return maximum == Long.MAX_VALUE ? "at least " + minimum : "from " + minimum + " to " + maximum;
            }
        };
    }

    /** One of the given strings, compared ignoring case. */
    static ConfigValidator<String> oneOf(String... allowed) {
        List<String> values = List.of(allowed);
        return new ConfigValidator<>() {
            @Override
            public String problem(String value) {
                for (String candidate : values) {
                    if (candidate.equalsIgnoreCase(value.trim())) {
                        return null;
                    }
                }
                return "must be " + describe();
            }

            @Override
            public String describe() {
                return "one of " + String.join(", ", values);
            }
        };
    }

    /** A comma-separated list of the given strings, compared ignoring case, at least one. */
    static ConfigValidator<String> listOf(String... allowed) {
        ConfigValidator<String> element = oneOf(allowed);
        return new ConfigValidator<>() {
            @Override
            public String problem(String value) {
                if (value.isBlank()) {
                    return "must name at least one of " + String.join(", ", allowed);
                }
                for (String item : value.split(",")) {
                    if (element.problem(item) != null) {
                        return "'" + item.trim() + "' is not " + element.describe();
                    }
                }
                return null;
            }

            @Override
            public String describe() {
                return "a list of " + String.join(", ", allowed);
            }
        };
    }

    /**
     * Only {@code allowed} (compared ignoring case and surrounding spaces): for a setting whose other values ask
     * for something Spool does not have, where going on without it would be less safe than not starting.
     */
    static ConfigValidator<String> only(String allowed, String why) {
        return new ConfigValidator<>() {
            @Override
            public String problem(String value) {
                return allowed.equalsIgnoreCase(value.trim()) ? null : why;
            }

            @Override
            public String describe() {
                return allowed.isEmpty() ? "empty (not supported)" : allowed + " (others not supported)";
            }
        };
    }
}
