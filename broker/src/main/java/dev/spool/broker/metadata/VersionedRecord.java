package dev.spool.broker.metadata;

import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.types.Message;

/** One cluster metadata record with its type and the version it is written in. Immutable once built. */
public record VersionedRecord(MetadataRecordType type, short version, Message data) {

    public static VersionedRecord of(MetadataRecordType type, Message data) {
        return new VersionedRecord(type, (short) 0, data);
    }
}
