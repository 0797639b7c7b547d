package dev.spool.generator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Emits one message or struct class: fields, constructors, read / write / size for every version,
 * accessors, equals, hashCode and toString. Thread-safe.
 */
final class StructGenerator {

    private final MessageSpec spec;
    private final Versions context;
    private final Map<String, List<FieldSpec>> structs;

    /** {@code structs}: every struct of the message by name, to find the key fields of keyed arrays. */
    StructGenerator(MessageSpec spec, Map<String, List<FieldSpec>> structs) {
        this.spec = spec;
        this.context = spec.validVersions();
        this.structs = structs;
    }

    /** Emits the body of a class named {@code className} (header line included, closing brace included). */
    void emitClass(CodeWriter code, String className, List<FieldSpec> fields, boolean nested, Runnable extraMembers) {
        code.line("public %sfinal class %s implements %s {", nested ? "static " : "", className,
                !nested && hasThrottleTime(fields) ? "dev.spool.protocol.types.ThrottledResponse" : "Message");
        for (FieldSpec field : fields) {
            code.line("private %s %s;", field.type().javaType(), field.javaName());
        }
        code.line("private List<RawTaggedField> unknownTaggedFields;");
        code.blank();
        code.line("public %s() {", className);
        for (FieldSpec field : fields) {
            code.line("this.%s = %s;", field.javaName(), Literals.defaultValue(field));
        }
        code.line("}");
        code.blank();
        code.line("public %s(ProtocolReader r, short version) {", className);
        code.line("read(r, version);");
        code.line("}");
        if (extraMembers != null) {
            extraMembers.run();
        }
        emitRead(code, fields);
        emitWrite(code, fields);
        emitSize(code, fields);
        emitAccessors(code, className, fields);
        emitEquals(code, className, fields);
        emitToString(code, className, fields);
        code.line("}");
    }

    /** A top-level response with Kafka's throttle_time_ms field implements ThrottledResponse. */
    private static boolean hasThrottleTime(List<FieldSpec> fields) {
        for (FieldSpec field : fields) {
            if (field.name().equals("ThrottleTimeMs") && field.type().javaType().equals("int")) {
                return true;
            }
        }
        return false;
    }

    private String flexibleTest() {
        return spec.flexibleVersions().javaTest("version", context);
    }

    private String compactTest(FieldSpec field) {
        return field.flexibleVersions() != null ? field.flexibleVersions().javaTest("version", context) : "flexible";
    }

    private String nullableTest(FieldSpec field) {
        return field.nullableVersions().javaTest("version", context);
    }

    private List<FieldSpec> taggedFields(List<FieldSpec> fields) {
        List<FieldSpec> tagged = new ArrayList<>();
        for (FieldSpec field : fields) {
            if (field.isTagged()) {
                tagged.add(field);
            }
        }
        tagged.sort(Comparator.comparingInt(FieldSpec::tag));
        return tagged;
    }

    private void emitRead(CodeWriter code, List<FieldSpec> fields) {
        code.blank();
        code.line("@Override");
        code.line("public void read(ProtocolReader r, short version) {");
        code.line("boolean flexible = %s;", flexibleTest());
        for (FieldSpec field : fields) {
            String target = "this." + field.javaName();
            String present = field.fixedVersions().javaTest("version", context);
            if (present.equals("false")) {
                code.line("%s = %s;", target, Literals.defaultValue(field));
                continue;
            }
            code.line("if (%s) {", present);
            FieldCodec.emitRead(code, field, target, compactTest(field), nullableTest(field));
            code.line("} else {");
            code.line("%s = %s;", target, Literals.defaultValue(field));
            code.line("}");
        }
        code.line("this.unknownTaggedFields = null;");
        code.line("if (flexible) {");
        code.line("int taggedFieldCount = r.readUnsignedVarint();");
        code.line("for (int t = 0; t < taggedFieldCount; t++) {");
        code.line("int tag = r.readUnsignedVarint();");
        code.line("int size = r.readUnsignedVarint();");
        code.line("int end = r.taggedFieldEnd(size);");
        String prefix = "";
        for (FieldSpec field : taggedFields(fields)) {
            code.line("%sif (tag == %d && %s) {", prefix, field.tag(),
                    field.taggedVersions().javaTest("version", context));
            FieldCodec.emitRead(code, field, "this." + field.javaName(), "true", nullableTest(field));
            prefix = "} else ";
        }
        if (prefix.isEmpty()) {
            code.line("this.unknownTaggedFields = r.readUnknownTaggedField(this.unknownTaggedFields, tag, size);");
        } else {
            code.line("} else {");
            code.line("this.unknownTaggedFields = r.readUnknownTaggedField(this.unknownTaggedFields, tag, size);");
            code.line("}");
        }
        code.line("r.checkTaggedFieldEnd(end, tag);");
        code.line("}");
        code.line("}");
        code.line("}");
    }

    private String taggedPresent(FieldSpec field) {
        return field.taggedVersions().javaTest("version", context) + " && !(" + Literals.isDefault(field, "this." + field.javaName()) + ")";
    }

    private void emitWrite(CodeWriter code, List<FieldSpec> fields) {
        code.blank();
        code.line("@Override");
        code.line("public void write(ProtocolWriter w, short version) {");
        code.line("boolean flexible = %s;", flexibleTest());
        for (FieldSpec field : fields) {
            String present = field.fixedVersions().javaTest("version", context);
            if (present.equals("false")) {
                continue;
            }
            code.line("if (%s) {", present);
            FieldCodec.emitWrite(code, field, "this." + field.javaName(), compactTest(field), nullableTest(field));
            code.line("}");
        }
        code.line("if (flexible) {");
        List<FieldSpec> tagged = taggedFields(fields);
        code.line("int taggedFieldCount = RawTaggedField.count(unknownTaggedFields);");
        for (FieldSpec field : tagged) {
            code.line("if (%s) {", taggedPresent(field));
            code.line("taggedFieldCount++;");
            code.line("}");
        }
        code.line("w.writeUnsignedVarint(taggedFieldCount);");
        code.line("int raw = 0;");
        for (FieldSpec field : tagged) {
            code.line("raw = w.writeRawTaggedFields(unknownTaggedFields, raw, %d);", field.tag());
            code.line("if (%s) {", taggedPresent(field));
            code.line("int valueSize = 0;");
            String value = "this." + field.javaName();
            FieldCodec.emitSize(code, field, value, "valueSize", "true", nullableTest(field));
            code.line("w.writeUnsignedVarint(%d);", field.tag());
            code.line("w.writeUnsignedVarint(valueSize);");
            FieldCodec.emitWrite(code, field, value, "true", nullableTest(field));
            code.line("}");
        }
        code.line("w.writeRawTaggedFields(unknownTaggedFields, raw, Integer.MAX_VALUE);");
        code.line("}");
        code.line("}");
    }

    private void emitSize(CodeWriter code, List<FieldSpec> fields) {
        code.blank();
        code.line("@Override");
        code.line("public int size(short version) {");
        code.line("boolean flexible = %s;", flexibleTest());
        code.line("int size = 0;");
        for (FieldSpec field : fields) {
            String present = field.fixedVersions().javaTest("version", context);
            if (present.equals("false")) {
                continue;
            }
            code.line("if (%s) {", present);
            FieldCodec.emitSize(code, field, "this." + field.javaName(), "size", compactTest(field), nullableTest(field));
            code.line("}");
        }
        code.line("if (flexible) {");
        code.line("int taggedFieldCount = RawTaggedField.count(unknownTaggedFields);");
        code.line("size += RawTaggedField.totalSize(unknownTaggedFields);");
        for (FieldSpec field : taggedFields(fields)) {
            code.line("if (%s) {", taggedPresent(field));
            code.line("taggedFieldCount++;");
            code.line("int valueSize = 0;");
            FieldCodec.emitSize(code, field, "this." + field.javaName(), "valueSize", "true", nullableTest(field));
            code.line("size += Sizes.unsignedVarint(%d) + Sizes.unsignedVarint(valueSize) + valueSize;", field.tag());
            code.line("}");
        }
        code.line("size += Sizes.unsignedVarint(taggedFieldCount);");
        code.line("}");
        code.line("return size;");
        code.line("}");
    }

    private void emitAccessors(CodeWriter code, String className, List<FieldSpec> fields) {
        for (FieldSpec field : fields) {
            code.blank();
            code.line("public %s %s() {", field.type().javaType(), field.javaName());
            code.line("return this.%s;", field.javaName());
            code.line("}");
            code.blank();
            code.line("public %s set%s(%s value) {", className, field.capitalName(), field.type().javaType());
            code.line("this.%s = value;", field.javaName());
            code.line("return this;");
            code.line("}");
        }
        for (FieldSpec field : fields) {
            emitFinder(code, field);
        }
        code.blank();
        code.line("@Override");
        code.line("public List<RawTaggedField> unknownTaggedFields() {");
        code.line("if (unknownTaggedFields == null) {");
        code.line("unknownTaggedFields = new ArrayList<>(0);");
        code.line("}");
        code.line("return unknownTaggedFields;");
        code.line("}");
    }

    /**
     * For an array keyed by some of its element's fields ("mapKey" in the spec), a lookup of the
     * first element with the given key.
     */
    private void emitFinder(CodeWriter code, FieldSpec field) {
        if (!field.type().isArray() || !field.type().element().isStruct()) {
            return;
        }
        String elementType = field.type().element().structName();
        List<FieldSpec> keys = new ArrayList<>();
        for (FieldSpec elementField : structs.getOrDefault(elementType, List.of())) {
            if (elementField.mapKey()) {
                keys.add(elementField);
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        StringBuilder parameters = new StringBuilder();
        StringBuilder test = new StringBuilder();
        for (FieldSpec key : keys) {
            if (parameters.length() > 0) {
                parameters.append(", ");
                test.append(" && ");
            }
            parameters.append(key.type().javaType()).append(' ').append(key.javaName());
            boolean primitive = FieldCodec.fixedSize(key.type()) > 0 && key.type().kind() != FieldType.Kind.UUID;
            test.append(primitive
                    ? "element." + key.javaName() + "() == " + key.javaName()
                    : "Objects.equals(element." + key.javaName() + "(), " + key.javaName() + ")");
        }
        String array = "this." + field.javaName();
        code.blank();
        code.line("/** The first element of %s with this key, or null. */", field.javaName());
        code.line("public %s find%s(%s) {", elementType, field.capitalName(), parameters);
        code.line("if (%s != null) {", array);
        code.line("for (%s element : %s) {", elementType, array);
        code.line("if (%s) {", test);
        code.line("return element;");
        code.line("}");
        code.line("}");
        code.line("}");
        code.line("return null;");
        code.line("}");
    }

    private void emitEquals(CodeWriter code, String className, List<FieldSpec> fields) {
        code.blank();
        code.line("@Override");
        code.line("public boolean equals(Object other) {");
        code.line("if (!(other instanceof %s that)) {", className);
        code.line("return false;");
        code.line("}");
        StringBuilder all = new StringBuilder();
        for (FieldSpec field : fields) {
            String name = field.javaName();
            String test = switch (field.type().kind()) {
                case BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64 -> "this." + name + " == that." + name;
                case FLOAT64 -> "Double.compare(this." + name + ", that." + name + ") == 0";
                case BYTES -> "Arrays.equals(this." + name + ", that." + name + ")";
                default -> "Objects.equals(this." + name + ", that." + name + ")";
            };
            all.append(test).append("\n        && ");
        }
        all.append("RawTaggedField.sameFields(this.unknownTaggedFields, that.unknownTaggedFields)");
        code.line("return %s;", all);
        code.line("}");
        code.blank();
        code.line("@Override");
        code.line("public int hashCode() {");
        code.line("int hash = 0;");
        for (FieldSpec field : fields) {
            String name = field.javaName();
            String hash = switch (field.type().kind()) {
                case BOOL -> "Boolean.hashCode(" + name + ")";
                case INT8, INT16, UINT16, INT32 -> name;
                case UINT32, INT64 -> "Long.hashCode(" + name + ")";
                case FLOAT64 -> "Double.hashCode(" + name + ")";
                case BYTES -> "Arrays.hashCode(" + name + ")";
                default -> "Objects.hashCode(" + name + ")";
            };
            code.line("hash = 31 * hash + %s;", hash);
        }
        code.line("return hash;");
        code.line("}");
    }

    private void emitToString(CodeWriter code, String className, List<FieldSpec> fields) {
        code.blank();
        code.line("@Override");
        code.line("public String toString() {");
        StringBuilder expr = new StringBuilder("\"" + className + "(\"");
        String separator = "";
        for (FieldSpec field : fields) {
            String name = field.javaName();
            String value = field.type().kind() == FieldType.Kind.BYTES ? "Arrays.toString(" + name + ")" : name;
            expr.append("\n        + \"").append(separator).append(name).append("=\" + ").append(value);
            separator = ", ";
        }
        expr.append("\n        + \")\"");
        code.line("return %s;", expr);
        code.line("}");
    }
}
