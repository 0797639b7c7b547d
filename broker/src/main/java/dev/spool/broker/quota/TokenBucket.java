package dev.spool.broker.quota;

/**
 * A client's usage against a rate quota, as credit: the client earns its quota every second, up to what a whole
 * quota window holds ({@code quota.window.num - 1} samples of {@code quota.window.size.seconds}, the burst Kafka
 * lets a client's first requests have), and spends what it uses. Out of credit, it waits the time the quota takes
 * to repay the debt. Kafka's sampled rate forgets a burst all at once when its samples leave the window and so lets
 * the next burst through; repaying continuously holds a busy client to its quota from one second to the next.
 * Thread-safe.
 */
final class TokenBucket {

    private final double burstSeconds;
    private double credit = Double.NaN;
    private long lastMs;

    /** A window's credit in seconds: all but one of its samples, at least one. */
    static double burstSeconds(int samples, long sampleMs) {
        return Math.max(1, samples - 1) * sampleMs / 1000.0;
    }

    TokenBucket(double burstSeconds, long nowMs) {
        this.burstSeconds = burstSeconds;
        this.lastMs = nowMs;
    }

    /** Spends {@code value} under a quota of {@code perSecond}; the milliseconds until the credit is back to 0. */
    synchronized long spend(double value, double perSecond, long nowMs) {
        if (perSecond <= 0) {
            return Long.MAX_VALUE; // a quota of 0 lets nothing through
        }
        refill(perSecond, nowMs);
        credit -= value;
        return credit >= 0 ? 0 : (long) Math.ceil(-credit / perSecond * 1000);
    }

    /** Whether the client has used more than its credit under a quota of {@code perSecond}, as of now. */
    synchronized boolean inDebt(double perSecond, long nowMs) {
        if (perSecond <= 0) {
            return true;
        }
        refill(perSecond, nowMs);
        return credit < 0;
    }

    /** Gives back {@code value} spent on what was not delivered after all. */
    synchronized void refund(double value) {
        credit += value;
    }

    private void refill(double perSecond, long nowMs) {
        double full = burstSeconds * perSecond;
        credit = Double.isNaN(credit) ? full
                : Math.min(full, credit + Math.max(0, nowMs - lastMs) / 1000.0 * perSecond);
        lastMs = Math.max(lastMs, nowMs);
    }

    synchronized long lastMs() {
        return lastMs;
    }
}
