package dev.spool.log.index;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The offset and time indexes against a TreeMap oracle: lookups, truncation, trim and reopen. */
class SparseIndexModelTest {

    @Property(tries = 200)
    void offsetIndexAgreesWithTreeMap(@ForAll @LongRange(max = 1L << 40) long baseOffset,
                                      @ForAll @IntRange(min = 0, max = 200) int entries,
                                      @ForAll long seed) throws IOException {
        Random random = new Random(seed);
        Path dir = Files.createTempDirectory("spool-index");
        Path file = dir.resolve("00000000000000000000.index");
        TreeMap<Long, Integer> oracle = new TreeMap<>();
        OffsetIndex index = new OffsetIndex(file, baseOffset, 8 * 150, true);
        long offset = baseOffset;
        int position = 0;
        for (int i = 0; i < entries && !index.isFull(); i++) {
            offset += 1 + random.nextInt(1000);
            position += 1 + random.nextInt(5000);
            index.append(offset, position);
            oracle.put(offset, position);
        }
        assertThat(index.isFull()).isEqualTo(oracle.size() == 150);
        long probeLimit = offset + 2000;
        for (int probe = 0; probe < 300; probe++) {
            long target = baseOffset + (long) (random.nextDouble() * (probeLimit - baseOffset));
            Map.Entry<Long, Integer> expected = oracle.floorEntry(target);
            assertThat(index.lookupPosition(target)).isEqualTo(expected == null ? 0 : expected.getValue());
            assertThat(index.lookupOffset(target)).isEqualTo(expected == null ? baseOffset : expected.getKey());
        }
        long cut = baseOffset + (long) (random.nextDouble() * (probeLimit - baseOffset));
        index.truncateTo(cut);
        oracle.tailMap(cut, true).clear();
        assertThat(index.entries()).isEqualTo(oracle.size());
        index.trimToEntries();
        assertThat(Files.size(file)).isEqualTo(8L * oracle.size());
        index.close();
        OffsetIndex reopened = new OffsetIndex(file, baseOffset, 8 * 150, false);
        assertThat(reopened.entries()).isEqualTo(oracle.size());
        reopened.sanityCheck(Integer.MAX_VALUE);
        for (Map.Entry<Long, Integer> entry : oracle.entrySet()) {
            assertThat(reopened.lookupPosition(entry.getKey())).isEqualTo(entry.getValue());
        }
        reopened.deleteIfExists();
        Files.delete(dir);
    }

    @Property(tries = 200)
    void timeIndexAgreesWithTreeMap(@ForAll @IntRange(min = 0, max = 100) int appends, @ForAll long seed)
            throws IOException {
        Random random = new Random(seed);
        Path dir = Files.createTempDirectory("spool-timeindex");
        Path file = dir.resolve("00000000000000000000.timeindex");
        TreeMap<Long, Long> oracle = new TreeMap<>();
        TimeIndex index = new TimeIndex(file, 500, 12 * 100, true);
        long offset = 500;
        long timestamp = 1_000_000;
        for (int i = 0; i < appends; i++) {
            offset += random.nextInt(50);
            timestamp += random.nextInt(100) - 30; // sometimes not larger: must be skipped
            boolean larger = oracle.isEmpty() || timestamp > oracle.lastKey();
            assertThat(index.maybeAppend(timestamp, offset)).isEqualTo(larger);
            if (larger) {
                oracle.put(timestamp, offset);
            }
        }
        for (int probe = 0; probe < 200; probe++) {
            long target = 999_000 + random.nextInt(8000);
            Map.Entry<Long, Long> expected = oracle.lowerEntry(target);
            assertThat(index.lookupOffsetBefore(target)).isEqualTo(expected == null ? 500 : expected.getValue());
        }
        index.sanityCheck();
        long cut = 500 + random.nextInt(3000);
        index.truncateTo(cut);
        oracle.values().removeIf(o -> o >= cut);
        assertThat(index.entries()).isEqualTo(oracle.size());
        assertThat(index.lastTimestamp()).isEqualTo(oracle.isEmpty() ? -1 : oracle.lastKey());
        index.deleteIfExists();
        Files.delete(dir);
    }
}
