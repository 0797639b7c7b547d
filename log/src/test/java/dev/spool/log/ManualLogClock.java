package dev.spool.log;

import dev.spool.fixtures.ManualClock;

/**
 * The shared {@link ManualClock} as the {@link LogClock} the log takes: time moves only when the test
 * says so. Thread-safe, as its superclass.
 */
public final class ManualLogClock extends ManualClock implements LogClock {
}
