package dev.spool.log.index;

import java.nio.ByteBuffer;

/** Stateless: binary search over the sorted keys of a sparse index. */
final class IndexSearch {

    /** Reads the sort key (absolute offset or timestamp) of the entry at {@code slot}. */
    interface KeyReader {
        long keyAt(ByteBuffer buffer, int slot);
    }

    private IndexSearch() {
    }

    /** The last slot whose key is <= {@code target}, or -1 if every key is larger (or there are none). */
    static int largestLowerBoundSlot(ByteBuffer buffer, int entries, long target, KeyReader keys) {
        if (entries == 0 || keys.keyAt(buffer, 0) > target) {
            return -1;
        }
        int low = 0;
        int high = entries - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (keys.keyAt(buffer, mid) <= target) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** The first slot whose key is >= {@code target}, or {@code entries} if none. */
    static int smallestUpperBoundSlot(ByteBuffer buffer, int entries, long target, KeyReader keys) {
        int low = 0;
        int high = entries;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (keys.keyAt(buffer, mid) >= target) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
