package dev.spool.protocol.message;

import dev.spool.generator.FieldSpec;
import dev.spool.generator.FieldType;
import dev.spool.generator.MessageSpec;
import org.apache.kafka.common.protocol.DataOutputStreamWritable;
import org.apache.kafka.common.protocol.Writable;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Writes a random, valid encoding of one version of a message spec, walking the spec itself rather
 * than either codec under test, so that Spool's and Kafka's readers are handed the same independent
 * input (the primitives go through Kafka's {@code DataOutputStreamWritable}). Not thread-safe: one
 * instance per message.
 *
 * <p>The encoding follows the spec: fields outside the version are absent; nullable fields are null
 * now and then; flexible versions use compact lengths (unless a field overrides its
 * flexibleVersions, as the request header's client id does) and end every struct with its tagged
 * fields, in ascending tag order, each preceded by its size; a nullable struct is preceded by a
 * presence byte (-1 absent, 1 present).
 */
final class RandomMessageEncoder {

    /** Exclusive bounds of array lengths, shrinking with depth so that nested arrays stay small. */
    private static final int[] ARRAY_LENGTH_BOUND_BY_DEPTH = {5, 4, 3};
    /** Unknown tags are drawn below this: past every tag the specs define, and some varints of two bytes. */
    private static final int UNKNOWN_TAG_BOUND = 200;

    private final MessageSpec spec;
    private final short version;
    private final boolean flexible;
    private final Random random;

    private RandomMessageEncoder(MessageSpec spec, short version, Random random) {
        this.spec = spec;
        this.version = version;
        this.flexible = spec.flexibleVersions().contains(version);
        this.random = random;
    }

    static byte[] encode(SpecVersion specVersion, Random random) {
        RandomMessageEncoder encoder = new RandomMessageEncoder(specVersion.spec(), specVersion.version(), random);
        return bytes(out -> encoder.writeStruct(out, specVersion.spec().fields(), 0));
    }

    private static byte[] bytes(Consumer<Writable> body) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStreamWritable out = new DataOutputStreamWritable(new DataOutputStream(buffer));
        body.accept(out);
        out.flush();
        return buffer.toByteArray();
    }

    private void writeStruct(Writable out, List<FieldSpec> fields, int depth) {
        List<FieldSpec> tagged = new ArrayList<>();
        for (FieldSpec field : fields) {
            if (!field.versions().contains(version)) {
                continue;
            }
            if (field.isTagged() && field.taggedVersions().contains(version)) {
                tagged.add(field);
            } else {
                boolean compact = field.flexibleVersions() != null ? field.flexibleVersions().contains(version) : flexible;
                writeValue(out, field, field.type(), field.nullableVersions().contains(version), compact, depth);
            }
        }
        if (flexible) {
            writeTaggedFields(out, fields, tagged, depth);
        }
    }

    /**
     * Writes about half of the known tagged fields, and sometimes tags the spec does not define,
     * which both codecs keep as raw bytes. Unknown tags avoid every defined tag: Kafka's reader
     * rejects a defined tag outside its taggedVersions ("Tag N is not valid for version V").
     */
    private void writeTaggedFields(Writable out, List<FieldSpec> fields, List<FieldSpec> tagged, int depth) {
        TreeMap<Integer, byte[]> byTag = new TreeMap<>();
        Set<Integer> defined = new HashSet<>();
        for (FieldSpec field : fields) {
            if (field.isTagged()) {
                defined.add(field.tag());
            }
        }
        for (FieldSpec field : tagged) {
            if (random.nextBoolean()) {
                boolean nullable = field.nullableVersions().contains(version);
                byTag.put(field.tag(), bytes(value -> writeValue(value, field, field.type(), nullable, true, depth)));
            }
        }
        int unknown = random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0;
        while (unknown > 0) {
            int tag = random.nextInt(UNKNOWN_TAG_BOUND);
            if (!defined.contains(tag) && !byTag.containsKey(tag)) {
                byTag.put(tag, randomBytes());
                unknown--;
            }
        }
        out.writeUnsignedVarint(byTag.size());
        for (Map.Entry<Integer, byte[]> field : byTag.entrySet()) {
            out.writeUnsignedVarint(field.getKey());
            out.writeUnsignedVarint(field.getValue().length);
            out.writeByteArray(field.getValue());
        }
    }

    private void writeValue(Writable out, FieldSpec field, FieldType type, boolean nullable, boolean compact,
                            int depth) {
        boolean writeNull = nullable && random.nextInt(5) == 0;
        switch (type.kind()) {
            // Both codecs read any non-zero byte as true and write it back as 1.
            case BOOL -> out.writeByte((byte) (random.nextInt(8) == 0 ? random.nextInt() : random.nextInt(2)));
            case INT8 -> out.writeByte((byte) randomInteger(8));
            case INT16, UINT16 -> out.writeShort((short) randomInteger(16));
            case INT32, UINT32 -> out.writeInt((int) randomInteger(32));
            case INT64, FLOAT64 -> out.writeLong(randomInteger(64));
            case UUID -> {
                boolean zero = random.nextInt(4) == 0;
                out.writeLong(zero ? 0 : random.nextLong());
                out.writeLong(zero ? 0 : random.nextLong());
            }
            case STRING -> writeSized(out, writeNull ? null : randomString().getBytes(StandardCharsets.UTF_8), compact,
                    false);
            case BYTES, RECORDS -> writeSized(out, writeNull ? null : randomBytes(), compact, true);
            case STRUCT -> {
                if (nullable) {
                    out.writeByte(writeNull ? (byte) -1 : (byte) 1);
                }
                if (!writeNull) {
                    writeStruct(out, structFields(field, type), depth + 1);
                }
            }
            case ARRAY -> {
                int count = writeNull ? -1 : random.nextInt(ARRAY_LENGTH_BOUND_BY_DEPTH[
                        Math.min(depth, ARRAY_LENGTH_BOUND_BY_DEPTH.length - 1)]);
                writeLength(out, count, compact, true);
                for (int i = 0; i < count; i++) {
                    writeValue(out, field, type.element(), false, compact, depth + 1);
                }
            }
        }
    }

    private List<FieldSpec> structFields(FieldSpec field, FieldType type) {
        if (!field.fields().isEmpty()) {
            return field.fields();
        }
        List<FieldSpec> common = spec.commonStructs().get(type.structName());
        if (common == null) {
            throw new AssertionError(spec.name() + ": no fields for struct " + type.structName());
        }
        return common;
    }

    /** A length-prefixed value; null is length -1. Strings have an int16 length, bytes an int32 one. */
    private static void writeSized(Writable out, byte[] value, boolean compact, boolean wide) {
        writeLength(out, value == null ? -1 : value.length, compact, wide);
        if (value != null) {
            out.writeByteArray(value);
        }
    }

    private static void writeLength(Writable out, int length, boolean compact, boolean wide) {
        if (compact) {
            out.writeUnsignedVarint(length + 1);
        } else if (wide) {
            out.writeInt(length);
        } else {
            out.writeShort((short) length);
        }
    }

    /** An integer of {@code bits} bits, often an edge value (0, 1, -1, the minimum or the maximum). */
    private long randomInteger(int bits) {
        long min = -(1L << (bits - 1));
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> min;
            case 4 -> -min - 1;
            default -> random.nextLong();
        };
    }

    /** Mostly short; sometimes past 127 bytes, where a compact length takes two varint bytes. */
    private int randomLength() {
        return random.nextInt(10) == 0 ? 120 + random.nextInt(100) : random.nextInt(12);
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[randomLength()];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Valid UTF-16 with one- to four-byte UTF-8 characters, which both codecs encode alike. */
    private String randomString() {
        int length = randomLength();
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int codePoint = switch (random.nextInt(8)) {
                case 0 -> 0x80 + random.nextInt(0x800 - 0x80);
                case 1 -> 0x800 + random.nextInt(Character.MIN_SURROGATE - 0x800);
                case 2 -> Character.MIN_SUPPLEMENTARY_CODE_POINT
                        + random.nextInt(Character.MAX_CODE_POINT + 1 - Character.MIN_SUPPLEMENTARY_CODE_POINT);
                default -> 0x20 + random.nextInt(0x7F - 0x20);
            };
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }
}
