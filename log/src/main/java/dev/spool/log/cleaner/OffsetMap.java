package dev.spool.log.cleaner;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Not thread-safe: owned by one cleaner thread and reused from one cleaning to the next.
 *
 * <p>The cleaner's "key -> latest offset" map of a dirty section, sized by
 * {@code log.cleaner.dedupe.buffer.size}. Keys are not stored: each is reduced to its 128-bit MD5
 * digest (collisions are negligible at any size that fits in memory), and the digests live in an
 * open-addressing table of parallel primitive arrays (linear probing), 24 bytes per slot:
 *
 * <pre>
 * slot i:  hashHigh[i] int64 | hashLow[i] int64 | offset[i] int64 (-1 = empty)
 * </pre>
 *
 * Inserting or looking up a key allocates nothing. At most {@code loadFactor} of the slots are used,
 * so a probe ends quickly; {@link #isFull()} tells the cleaner to stop adding and clean in another pass.
 */
public final class OffsetMap {
    /** Bytes one slot costs: two hash words and an offset. */
    public static final int BYTES_PER_SLOT = 24;
    private static final double LOAD_FACTOR = 0.9;

    private final MessageDigest md5;
    private final byte[] digest = new byte[16];
    private final long[] hashHigh;
    private final long[] hashLow;
    private final long[] offsets;
    private final int maxEntries;
    private int size;
    private long latestOffset = -1;
    private long lookups;
    private long probes;

    /** A map with {@code slots} slots (at most 90% of them filled). */
    public OffsetMap(int slots) {
        if (slots < 2) {
            throw new IllegalArgumentException("An offset map needs at least 2 slots, not " + slots);
        }
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
        hashHigh = new long[slots];
        hashLow = new long[slots];
        offsets = new long[slots];
        maxEntries = Math.max(1, (int) (slots * LOAD_FACTOR));
        clear();
    }

    /** Slots that fit in {@code bytes} of memory. */
    public static int slotsFor(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2, bytes / BYTES_PER_SLOT));
    }

    public int slots() {
        return offsets.length;
    }

    /** How many more distinct keys may be added. */
    public int remainingCapacity() {
        return maxEntries - size;
    }

    public boolean isFull() {
        return size >= maxEntries;
    }

    public int size() {
        return size;
    }

    /** The largest offset put since the last {@link #clear()}, or -1. */
    public long latestOffset() {
        return latestOffset;
    }

    /** Average probes per operation (1.0 = every key found its slot at once): a health figure for stats. */
    public double averageProbes() {
        return lookups == 0 ? 1.0 : (double) probes / lookups;
    }

    public void clear() {
        Arrays.fill(offsets, -1L);
        size = 0;
        latestOffset = -1;
        lookups = 0;
        probes = 0;
    }

    /**
     * Records {@code offset} as the latest for {@code key} (the remaining bytes; not consumed).
     *
     * @throws IllegalStateException if the map is full and the key is new
     */
    public void put(ByteBuffer key, long offset) {
        int slot = find(key);
        if (offsets[slot] < 0) {
            if (isFull()) {
                throw new IllegalStateException("Offset map full at " + size + " keys");
            }
            hashHigh[slot] = high();
            hashLow[slot] = low();
            size++;
        }
        offsets[slot] = offset;
        latestOffset = Math.max(latestOffset, offset);
    }

    /** The latest offset put for {@code key}, or -1. */
    public long get(ByteBuffer key) {
        return offsets[find(key)];
    }

    /** Hashes {@code key} into {@link #digest} and returns its slot or the empty slot where it would go. */
    private int find(ByteBuffer key) {
        int position = key.position();
        md5.update(key);
        key.position(position);
        try {
            md5.digest(digest, 0, digest.length);
        } catch (DigestException e) {
            throw new IllegalStateException("MD5 digest of " + digest.length + " bytes failed", e);
        }
        long high = high();
        long low = low();
        int slot = (int) ((high ^ (high >>> 32)) & 0x7fffffffL) % offsets.length;
        lookups++;
        while (true) {
            probes++;
            if (offsets[slot] < 0 || (hashHigh[slot] == high && hashLow[slot] == low)) {
                return slot;
            }
            slot = slot + 1 == offsets.length ? 0 : slot + 1;
        }
    }

    private long high() {
        return wordAt(0);
    }

    private long low() {
        return wordAt(8);
    }

    private long wordAt(int index) {
        long word = 0;
        for (int i = index; i < index + 8; i++) {
            word = (word << 8) | (digest[i] & 0xff);
        }
        return word;
    }
}
