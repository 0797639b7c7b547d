package dev.spool.broker.metadata;

import java.util.List;

/**
 * What a metadata command decided: the records to append (none for a rejected or validate-only
 * command) and the result to answer with once they are applied. Immutable.
 */
public record MetadataChange<T>(List<VersionedRecord> records, T result) {

    public static <T> MetadataChange<T> none(T result) {
        return new MetadataChange<>(List.of(), result);
    }
}
