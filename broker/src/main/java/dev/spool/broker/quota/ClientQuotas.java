package dev.spool.broker.quota;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The client quotas a broker enforces, over the quotas of its metadata image: produced bytes, fetched bytes and
 * the share of request handling time, each measured over {@code quota.window.num} samples of
 * {@code quota.window.size.seconds}. Thread-safe.
 */
public final class ClientQuotas {

    public final ClientQuotaManager produce;
    public final ClientQuotaManager fetch;
    public final ClientQuotaManager requestTime;

    public ClientQuotas(Supplier<Map<QuotaEntity, Map<String, Double>>> quotas, int samples, long sampleMs) {
        this.produce = new ClientQuotaManager(QuotaType.PRODUCER_BYTE_RATE, quotas, samples, sampleMs);
        this.fetch = new ClientQuotaManager(QuotaType.CONSUMER_BYTE_RATE, quotas, samples, sampleMs);
        this.requestTime = new ClientQuotaManager(QuotaType.REQUEST_PERCENTAGE, quotas, samples, sampleMs);
    }
}
