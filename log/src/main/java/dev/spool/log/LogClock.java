package dev.spool.log;

/**
 * Thread-safe (implementations must be): the wall clock the log reads, in epoch milliseconds, injected
 * so that retention, segment.ms and flush.ms are tested without sleeping.
 */
@FunctionalInterface
public interface LogClock {
    LogClock SYSTEM = System::currentTimeMillis;

    long nowMs();
}
