package dev.spool.broker.metrics;

import dev.spool.log.cleaner.CleanerStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.ToDoubleFunction;

/**
 * Thread-safe: the log cleaner's figures, read from its {@link CleanerStats} when Prometheus scrapes, with the
 * names of Kafka's kafka.log:type=LogCleaner metrics (max-clean-time-secs, cleaner-recopy-percent,
 * max-buffer-utilization-percent, max-dirty-percent) plus running totals.
 */
final class CleanerMetrics {

    private static final double MS_PER_SECOND = 1000.0;
    private static final double PERCENT = 100.0;

    private CleanerMetrics() {
    }

    static void register(PrometheusRegistry registry, CleanerStats stats) {
        gauge(registry, "kafka_log_logcleaner_max_clean_time_secs", "The longest cleaning of one log, in seconds.",
                stats, s -> s.maxCleanTimeMs() / MS_PER_SECOND);
        gauge(registry, "kafka_log_logcleaner_cleaner_recopy_percent",
                "Bytes written over bytes read by the cleaner, in percent (100 = nothing removed).",
                stats, s -> s.recopyRatio() * PERCENT);
        gauge(registry, "kafka_log_logcleaner_max_buffer_utilization_percent",
                "How full the key map was in the last cleaning, in percent.",
                stats, s -> s.lastBufferUtilization() * PERCENT);
        gauge(registry, "kafka_log_logcleanermanager_max_dirty_percent",
                "The highest dirty ratio of a log when it was cleaned, in percent.",
                stats, s -> s.maxDirtyRatio() * PERCENT);
        counter(registry, "kafka_log_logcleaner_cleanings", "Logs cleaned.", stats, CleanerStats::cleanings);
        counter(registry, "kafka_log_logcleaner_failed_cleanings", "Cleanings that failed (logged).", stats,
                CleanerStats::failedCleanings);
        counter(registry, "kafka_log_logcleaner_read_bytes", "Bytes the cleaner read.", stats, CleanerStats::bytesRead);
        counter(registry, "kafka_log_logcleaner_written_bytes", "Bytes the cleaner wrote.", stats,
                CleanerStats::bytesWritten);
    }

    private static void gauge(PrometheusRegistry registry, String name, String help, CleanerStats stats,
                              ToDoubleFunction<CleanerStats> value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(callback -> callback.call(value.applyAsDouble(stats))).register(registry);
    }

    private static void counter(PrometheusRegistry registry, String name, String help, CleanerStats stats,
                                ToDoubleFunction<CleanerStats> value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(callback -> callback.call(value.applyAsDouble(stats))).register(registry);
    }
}
