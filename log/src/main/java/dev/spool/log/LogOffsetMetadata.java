package dev.spool.log;

/**
 * Immutable. An offset of a partition log together with where its bytes begin: the base offset of the segment
 * holding it and the byte position in that segment (for the log end offset, the segment's size when that
 * offset was reached). A read bound by one of these stops at that position without looking at the segment
 * again, so appends that happen meanwhile cannot slip into it (Kafka's LogOffsetMetadata).
 */
public record LogOffsetMetadata(long offset, long segmentBaseOffset, int position) {
}
