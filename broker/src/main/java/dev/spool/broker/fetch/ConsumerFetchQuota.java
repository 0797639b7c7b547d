package dev.spool.broker.fetch;

import dev.spool.broker.api.RequestContext;

/**
 * {@code consumer_byte_rate} as a consumer's Fetch meets it: asked for no more than the client's quota allows in a
 * window, and answered empty, with the time to wait, when what was read would put it over (the fetch session is then
 * left as it was: nothing was sent). Thread-safe.
 */
public interface ConsumerFetchQuota {

    /** No quota: every fetch as asked. */
    ConsumerFetchQuota NONE = context -> null;

    /** The consumer's quota for this fetch, resolved once; null when none applies. */
    Meter of(RequestContext context);

    /** One fetch's quota. */
    interface Meter {

        /** The most bytes the consumer may be given at once. */
        int maxBytes();

        /** 0 when {@code bytes} may be sent (they are counted), else how long the consumer waits (they are not). */
        long admit(long bytes);
    }
}
