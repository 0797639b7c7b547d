package dev.spool.broker.quota;

import dev.spool.broker.config.BrokerConfig;
import dev.spool.broker.metadata.MetadataImage;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The client quotas a broker enforces, over the quotas of its metadata image: produced bytes, fetched bytes, the
 * share of request handling time and partitions created or deleted. Thread-safe.
 */
public final class ClientQuotas {

    public final ClientQuotaManager produce;
    public final ClientQuotaManager fetch;
    public final ClientQuotaManager requestTime;
    public final ClientQuotaManager mutations;

    /**
     * {@code samples} of {@code sampleMs} for the client quotas, {@code controllerSamples} of
     * {@code controllerSampleMs} ({@code controller.quota.window.*}) for {@code controller_mutation_rate}. As Kafka,
     * a client over its request_percentage waits at most one sample at once, over the others a whole window.
     */
    public ClientQuotas(Supplier<Map<QuotaEntity, Map<String, Double>>> quotas, int samples, long sampleMs,
                        int controllerSamples, long controllerSampleMs) {
        this.produce = new ClientQuotaManager(QuotaType.PRODUCER_BYTE_RATE, quotas, samples, sampleMs,
                samples * sampleMs);
        this.fetch = new ClientQuotaManager(QuotaType.CONSUMER_BYTE_RATE, quotas, samples, sampleMs,
                samples * sampleMs);
        this.requestTime = new ClientQuotaManager(QuotaType.REQUEST_PERCENTAGE, quotas, samples, sampleMs, sampleMs);
        this.mutations = new ClientQuotaManager(QuotaType.CONTROLLER_MUTATION_RATE, quotas, controllerSamples,
                controllerSampleMs, controllerSamples * controllerSampleMs);
    }

    /** The quotas of the metadata image {@code image}, windows as {@code config} sets them. */
    public static ClientQuotas of(BrokerConfig config, Supplier<MetadataImage> image) {
        QuotaWindow clients = QuotaWindow.clients(config);
        QuotaWindow controller = QuotaWindow.controller(config);
        return new ClientQuotas(() -> image.get().clientQuotas(), clients.samples(), clients.sampleMs(),
                controller.samples(), controller.sampleMs());
    }
}
