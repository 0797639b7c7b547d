package dev.spool.log.cleaner;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetMapTest {

    @Property(tries = 100)
    void agreesWithAHashMap(@ForAll @Size(max = 300) List<@IntRange(min = 0, max = 400) Integer> keys,
                            @ForAll @IntRange(min = 2, max = 600) int slots) {
        OffsetMap map = new OffsetMap(slots);
        Map<Integer, Long> oracle = new HashMap<>();
        long offset = 0;
        for (int key : keys) {
            ByteBuffer bytes = key(key);
            if (!oracle.containsKey(key) && map.isFull()) {
                assertThatThrownBy(() -> map.put(bytes, 0)).isInstanceOf(IllegalStateException.class);
                continue;
            }
            map.put(bytes, offset);
            assertThat(bytes.position()).as("key bytes not consumed").isZero();
            oracle.put(key, offset++);
        }
        assertThat(map.size()).isEqualTo(oracle.size());
        for (int key = 0; key <= 400; key++) {
            assertThat(map.get(key(key))).isEqualTo(oracle.getOrDefault(key, -1L));
        }
        assertThat(map.latestOffset()).isEqualTo(offset - 1);
    }

    @Test
    void clearEmptiesAndCapacityFollowsTheLoadFactor() {
        OffsetMap map = new OffsetMap(100);
        assertThat(map.remainingCapacity()).isEqualTo(90);
        map.put(key(1), 5);
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.get(key(1))).isEqualTo(-1);
        assertThat(OffsetMap.slotsFor(128L * 1024 * 1024)).isEqualTo(128 * 1024 * 1024 / 24);
    }

    private static ByteBuffer key(int key) {
        return ByteBuffer.wrap(("key-" + key).getBytes(StandardCharsets.UTF_8));
    }
}
