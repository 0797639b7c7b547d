package dev.spool.broker;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Immutable: the deliberately broken builds a fault test must catch (issue 20), switched on only by the JVM
 * option {@code -Dspool.deliberate.fault=NAME} (through {@code SPOOL_OPTS}); never a setting, never on by default.
 * A fault test that has never failed on a broken broker proves nothing: these break the three rules that keep
 * acknowledged records, and the two that make a consume-transform-produce loop exactly once ({@link #ACTIVE} is a
 * constant, so in a normal run each check folds away).
 */
public enum DeliberateFault {
    /** None: the broker as it should be. */
    NONE,
    /** The leader's high watermark is its own log end: records count as committed before any follower has them. */
    HIGH_WATERMARK_AT_LEADER_LOG_END,
    /** acks=all is answered as soon as the leader has appended, without waiting for the in-sync replicas. */
    ACKS_ALL_BEFORE_ISR,
    /** A follower whose log diverged from its leader's keeps it and goes on appending after it. */
    SKIP_TRUNCATION,
    /** A group's offsets committed in a transaction count even when the transaction aborts (exactly-once broken). */
    TXN_OFFSETS_KEPT_AT_ABORT,
    /** A read_committed consumer's OffsetFetch is answered from memory, unproven: a deposed coordinator's is stale. */
    COORDINATOR_READS_UNPROVEN;

    public static final String PROPERTY = "spool.deliberate.fault";
    public static final DeliberateFault ACTIVE = fromProperty(System.getProperty(PROPERTY));

    static DeliberateFault fromProperty(String name) {
        if (name == null || name.isBlank()) {
            return NONE;
        }
        DeliberateFault fault = valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        LoggerFactory.getLogger(DeliberateFault.class).warn("THIS BROKER IS DELIBERATELY BROKEN ({}={}): it can "
                + "lose acknowledged records; for fault tests only", PROPERTY, fault);
        return fault;
    }

    public static boolean is(DeliberateFault fault) {
        return ACTIVE == fault;
    }
}
