package dev.spool.broker.config;

import dev.spool.log.LogConfig;
import dev.spool.log.LogConfigKey;
import java.util.Map;

/**
 * Immutable: a broker setting that sets the default of a topic-level log config, as Kafka pairs them ({@code
 * log.retention.hours} for {@code retention.ms}, {@code message.max.bytes} for {@code max.message.bytes}...).
 * The broker value times {@code toTopicUnit} is the topic value, which converts hours and minutes to
 * milliseconds. Its type and valid values are those of the topic config, declared once in the log module's
 * {@link LogConfigKey}.
 *
 * @param precedence among several broker settings for one topic config, the lowest set one wins
 *                   (log.retention.ms over log.retention.minutes over log.retention.hours)
 */
public record LogDefaultSetting(String brokerName, String topicName, long toTopicUnit, int precedence, String doc) {

    static LogDefaultSetting same(String brokerName, String topicName, String doc) {
        return new LogDefaultSetting(brokerName, topicName, 1, 0, doc);
    }

    /** The topic config this setting gives a default to. */
    public LogConfigKey topicKey() {
        return LogConfigKey.forName(topicName);
    }

    /** The type DescribeConfigs reports: the topic config's. */
    public ConfigType type() {
        return ConfigType.of(topicKey());
    }

    /** The topic config's value for a raw value of this setting (hours and minutes become milliseconds). */
    public String toTopicValue(String raw) {
        String value = raw.trim();
        if (toTopicUnit == 1) {
            return value;
        }
        try {
            return String.valueOf(Math.multiplyExact(Long.parseLong(value), toTopicUnit));
        } catch (NumberFormatException e) {
            throw new ConfigException(ConfigKey.invalid(brokerName, raw, "not a number"));
        } catch (ArithmeticException e) {
            throw new ConfigException(ConfigKey.invalid(brokerName, raw, "too large"));
        }
    }

    /** Refuses a raw value that is not a valid value of this setting, naming the setting and the value. */
    public void check(String raw) {
        String topicValue = toTopicValue(raw);
        try {
            LogConfig.fromProperties(Map.of(topicName, topicValue));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKey.invalid(brokerName, raw, e.getMessage()));
        }
    }
}
