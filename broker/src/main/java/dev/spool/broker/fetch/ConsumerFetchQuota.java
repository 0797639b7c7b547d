package dev.spool.broker.fetch;

import dev.spool.broker.api.RequestContext;

/**
 * {@code consumer_byte_rate} as a consumer's Fetch meets it: asked for no more than the client's quota allows in a
 * window, and answered empty, with the time to wait, when what was read would put it over (the fetch session is then
 * left as it was: nothing was sent). Thread-safe.
 */
public interface ConsumerFetchQuota {

    /** No quota: every fetch as asked. */
    ConsumerFetchQuota NONE = new ConsumerFetchQuota() {
        @Override
        public int maxBytes(RequestContext context) {
            return Integer.MAX_VALUE;
        }

        @Override
        public long admit(RequestContext context, long bytes) {
            return 0;
        }
    };

    /** The most bytes the consumer may be given at once (Integer.MAX_VALUE: no limit). */
    int maxBytes(RequestContext context);

    /** 0 when {@code bytes} may be sent (they are counted), else how long the consumer waits (they are not). */
    long admit(RequestContext context, long bytes);
}
