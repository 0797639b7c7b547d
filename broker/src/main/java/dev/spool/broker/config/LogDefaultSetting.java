package dev.spool.broker.config;

/**
 * A broker setting that sets the default of a topic-level log config, as Kafka pairs them
 * ({@code log.retention.hours} for {@code retention.ms}, {@code message.max.bytes} for
 * {@code max.message.bytes}...). The broker value times {@code toTopicUnit} is the topic value,
 * which converts hours and minutes to milliseconds. Immutable.
 *
 * @param precedence among several broker settings for one topic config, the lowest set one wins
 *                   (log.retention.ms over log.retention.minutes over log.retention.hours)
 */
public record LogDefaultSetting(String brokerName, String topicName, long toTopicUnit, int precedence, String doc) {

    static LogDefaultSetting same(String brokerName, String topicName, String doc) {
        return new LogDefaultSetting(brokerName, topicName, 1, 0, doc);
    }
}
