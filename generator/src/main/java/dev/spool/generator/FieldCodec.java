package dev.spool.generator;

/**
 * Emits the statements that read, write and size one field's value. The generated code calls the
 * runtime helpers of {@code dev.spool.protocol.types} ({@code ProtocolReader}, {@code ProtocolWriter},
 * {@code Sizes}), which own the wire encodings. Thread-safe.
 *
 * <p>{@code compact} and {@code nullable} are Java boolean expressions evaluated at run time against
 * the message version: compact (flexible) encodings and nullability both depend on the version.
 */
final class FieldCodec {

    private FieldCodec() {
    }

    static void emitRead(CodeWriter code, FieldSpec field, String target, String compact, String nullable) {
        FieldType type = field.type();
        String name = Literals.quote(field.name());
        switch (type.kind()) {
            case STRING -> code.line("%s = r.readString(%s, %s, %s);", target, compact, nullable, name);
            case BYTES -> code.line("%s = r.readBytes(%s, %s, %s);", target, compact, nullable, name);
            case RECORDS -> code.line("%s = r.readRecords(%s, %s, %s);", target, compact, nullable, name);
            case STRUCT -> {
                // A nullable struct opens with a marker: an int8 (-1 null, 1 present), or an unsigned varint (0 null,
                // 1 present) in a tagged field, as Kafka's generated code writes them.
                code.line(field.isTagged() ? "if (%s && r.readUnsignedVarint() == 0) {" : "if (%s && r.readInt8() < 0) {",
                        nullable);
                code.line("%s = null;", target);
                code.line("} else {");
                code.line("%s = new %s(r, version);", target, type.structName());
                code.line("}");
            }
            case ARRAY -> {
                code.line("{");
                code.line("int n = r.readArrayLength(%s);", compact);
                code.line("if (n < 0) {");
                code.line("r.requireNullable(%s, %s);", nullable, name);
                code.line("%s = null;", target);
                code.line("} else {");
                code.line("ArrayList<%s> list = new ArrayList<>(r.boundedCapacity(n));", type.element().boxedType());
                code.line("for (int i = 0; i < n; i++) {");
                code.line("list.add(%s);", readElement(type.element(), compact, name));
                code.line("}");
                code.line("%s = list;", target);
                code.line("}");
                code.line("}");
            }
            default -> code.line("%s = %s;", target, readPrimitive(type));
        }
    }

    private static String readElement(FieldType element, String compact, String name) {
        return switch (element.kind()) {
            case STRING -> "r.readString(" + compact + ", false, " + name + ")";
            case BYTES -> "r.readBytes(" + compact + ", false, " + name + ")";
            case STRUCT -> "new " + element.structName() + "(r, version)";
            case RECORDS, ARRAY -> throw new IllegalArgumentException("unsupported array element in " + name);
            default -> readPrimitive(element);
        };
    }

    private static String readPrimitive(FieldType type) {
        return switch (type.kind()) {
            case BOOL -> "r.readBool()";
            case INT8 -> "r.readInt8()";
            case INT16 -> "r.readInt16()";
            case UINT16 -> "r.readUint16()";
            case INT32 -> "r.readInt32()";
            case UINT32 -> "r.readUint32()";
            case INT64 -> "r.readInt64()";
            case FLOAT64 -> "r.readFloat64()";
            case UUID -> "r.readUuid()";
            default -> throw new IllegalArgumentException("not a primitive: " + type);
        };
    }

    static void emitWrite(CodeWriter code, FieldSpec field, String value, String compact, String nullable) {
        FieldType type = field.type();
        String name = Literals.quote(field.name());
        switch (type.kind()) {
            case STRING -> code.line("w.writeString(%s, %s, %s, %s);", value, compact, nullable, name);
            case BYTES -> code.line("w.writeBytes(%s, %s, %s, %s);", value, compact, nullable, name);
            case RECORDS -> code.line("w.writeRecords(%s, %s, %s, %s);", value, compact, nullable, name);
            case STRUCT -> {
                code.line("if (%s) {", nullable);
                code.line(field.isTagged() ? "w.writeUnsignedVarint(%s == null ? 0 : 1);"
                        : "w.writeInt8(%s == null ? (byte) -1 : (byte) 1);", value);
                code.line("}");
                code.line("if (%s != null) {", value);
                code.line("%s.write(w, version);", value);
                code.line("} else if (!(%s)) {", nullable);
                code.line("throw ProtocolWriter.nullNotAllowed(%s);", name);
                code.line("}");
            }
            case ARRAY -> {
                code.line("if (%s == null) {", value);
                code.line("w.writeNullArray(%s, %s, %s);", compact, nullable, name);
                code.line("} else {");
                code.line("w.writeArrayLength(%s.size(), %s);", value, compact);
                code.line("for (%s element : %s) {", type.element().boxedType(), value);
                code.line("%s;", writeElement(type.element(), "element", compact, name));
                code.line("}");
                code.line("}");
            }
            default -> code.line("%s;", writePrimitive(type, value));
        }
    }

    private static String writeElement(FieldType element, String value, String compact, String name) {
        return switch (element.kind()) {
            case STRING -> "w.writeString(" + value + ", " + compact + ", false, " + name + ")";
            case BYTES -> "w.writeBytes(" + value + ", " + compact + ", false, " + name + ")";
            case STRUCT -> value + ".write(w, version)";
            case RECORDS, ARRAY -> throw new IllegalArgumentException("unsupported array element in " + name);
            default -> writePrimitive(element, value);
        };
    }

    private static String writePrimitive(FieldType type, String value) {
        return switch (type.kind()) {
            case BOOL -> "w.writeBool(" + value + ")";
            case INT8 -> "w.writeInt8(" + value + ")";
            case INT16 -> "w.writeInt16(" + value + ")";
            case UINT16 -> "w.writeUint16(" + value + ")";
            case INT32 -> "w.writeInt32(" + value + ")";
            case UINT32 -> "w.writeUint32(" + value + ")";
            case INT64 -> "w.writeInt64(" + value + ")";
            case FLOAT64 -> "w.writeFloat64(" + value + ")";
            case UUID -> "w.writeUuid(" + value + ")";
            default -> throw new IllegalArgumentException("not a primitive: " + type);
        };
    }

    /** Emits statements adding the field's encoded size to the int variable {@code accumulator}. */
    static void emitSize(CodeWriter code, FieldSpec field, String value, String accumulator,
                         String compact, String nullable) {
        FieldType type = field.type();
        switch (type.kind()) {
            case STRING -> code.line("%s += Sizes.string(%s, %s);", accumulator, value, compact);
            case BYTES -> code.line("%s += Sizes.bytes(%s, %s);", accumulator, value, compact);
            case RECORDS -> code.line("%s += Sizes.records(%s, %s);", accumulator, value, compact);
            case STRUCT -> {
                code.line("if (%s) {", nullable);
                code.line("%s += 1;", accumulator);
                code.line("}");
                code.line("if (%s != null) {", value);
                code.line("%s += %s.size(version);", accumulator, value);
                code.line("}");
            }
            case ARRAY -> {
                code.line("if (%s == null) {", value);
                code.line("%s += Sizes.arrayLength(-1, %s);", accumulator, compact);
                code.line("} else {");
                code.line("%s += Sizes.arrayLength(%s.size(), %s);", accumulator, value, compact);
                FieldType element = type.element();
                int fixed = fixedSize(element);
                if (fixed > 0) {
                    code.line("%s += %s.size() * %d;", accumulator, value, fixed);
                } else {
                    code.line("for (%s element : %s) {", element.boxedType(), value);
                    switch (element.kind()) {
                        case STRING -> code.line("%s += Sizes.string(element, %s);", accumulator, compact);
                        case BYTES -> code.line("%s += Sizes.bytes(element, %s);", accumulator, compact);
                        case STRUCT -> code.line("%s += element.size(version);", accumulator);
                        default -> throw new IllegalArgumentException("unsupported array element in " + field.name());
                    }
                    code.line("}");
                }
                code.line("}");
            }
            default -> code.line("%s += %d;", accumulator, fixedSize(type));
        }
    }

    /** The encoded size of a fixed-width type, or 0 for variable-width types. */
    static int fixedSize(FieldType type) {
        return switch (type.kind()) {
            case BOOL, INT8 -> 1;
            case INT16, UINT16 -> 2;
            case INT32, UINT32 -> 4;
            case INT64, FLOAT64 -> 8;
            case UUID -> 16;
            default -> 0;
        };
    }
}
