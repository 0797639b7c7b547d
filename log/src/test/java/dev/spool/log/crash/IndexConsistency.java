package dev.spool.log.crash;

import dev.spool.log.PartitionLog;
import dev.spool.log.index.OffsetIndex;
import dev.spool.log.index.TimeIndex;
import dev.spool.log.segment.LogSegment;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/** Test helper: checks that every index entry of every segment points at the batch it names. */
public final class IndexConsistency {
    private IndexConsistency() {
    }

    public static void assertIndexesAgreeWithLog(PartitionLog log) throws IOException {
        ByteBuffer header = LogSegment.newHeaderBuffer();
        for (LogSegment segment : log.segments()) {
            OffsetIndex offsets = segment.offsetIndex();
            for (int slot = 0; slot < offsets.entries(); slot++) {
                int position = offsets.entryPosition(slot);
                assertThat(position).isLessThan(segment.sizeInBytes());
                assertThat(segment.readHeader(position, header)).isTrue();
                long lastOffset = header.getLong(0) + header.getInt(23);
                assertThat(lastOffset).as("batch at index position " + position + " of " + segment)
                        .isEqualTo(offsets.entryOffset(slot));
            }
            TimeIndex times = segment.timeIndex();
            long previous = Long.MIN_VALUE;
            for (int slot = 0; slot < times.entries(); slot++) {
                assertThat(times.entryTimestamp(slot)).isGreaterThan(previous).isLessThanOrEqualTo(segment.maxTimestampSoFar());
                assertThat(times.entryOffset(slot)).isLessThan(log.logEndOffset());
                previous = times.entryTimestamp(slot);
            }
        }
    }
}
