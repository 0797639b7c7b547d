package dev.spool.protocol.types;

/**
 * The bytes of a records field (record batches), never parsed by the protocol layer. A parsed
 * request holds a {@link ByteBufferRecords} slice of the request buffer; a response may hold any
 * implementation whose bytes a {@link ProtocolWriter} knows how to send (file regions, for
 * zero-copy fetch). Immutable once built.
 */
public interface Records {

    int sizeInBytes();
}
