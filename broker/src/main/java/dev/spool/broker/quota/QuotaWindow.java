package dev.spool.broker.quota;

import dev.spool.broker.config.BrokerConfig;

/**
 * The window quotas are measured over: {@code samples} samples of {@code sampleMs} each, read from the broker's
 * settings in this one place, so that client quotas and connection rates never disagree. Immutable.
 */
public record QuotaWindow(int samples, long sampleMs) {

    /** {@code quota.window.num} and {@code quota.window.size.seconds}: client quotas and connection rates. */
    public static QuotaWindow clients(BrokerConfig config) {
        return new QuotaWindow(config.get(BrokerConfig.QUOTA_WINDOW_NUM),
                config.get(BrokerConfig.QUOTA_WINDOW_SIZE_SECONDS) * 1000L);
    }

    /** {@code controller.quota.window.num} and {@code controller.quota.window.size.seconds}: controller_mutation_rate. */
    public static QuotaWindow controller(BrokerConfig config) {
        return new QuotaWindow(config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_NUM),
                config.get(BrokerConfig.CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS) * 1000L);
    }
}
