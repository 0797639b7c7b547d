package dev.spool.protocol.types;

import java.util.List;

/**
 * A protocol message or struct that reads and writes itself for a given version. Generated classes
 * implement it. Not thread-safe.
 */
public interface Message {

    /** Replaces this message's content with the one read from {@code reader}. */
    void read(ProtocolReader reader, short version);

    void write(ProtocolWriter writer, short version);

    /** The exact number of bytes {@link #write} produces for this version. */
    int size(short version);

    /** Tagged fields this version does not know, kept so that they can be written back. */
    List<RawTaggedField> unknownTaggedFields();
}
