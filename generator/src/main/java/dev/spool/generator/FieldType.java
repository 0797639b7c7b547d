package dev.spool.generator;

/**
 * The type of a spec field: a primitive, a struct, or an array of either. Immutable.
 */
public record FieldType(Kind kind, String structName, FieldType element) {

    /** The kinds a spec names. */
    public enum Kind {
        BOOL("boolean", "Boolean"),
        INT8("byte", "Byte"),
        INT16("short", "Short"),
        UINT16("int", "Integer"),
        INT32("int", "Integer"),
        UINT32("long", "Long"),
        INT64("long", "Long"),
        FLOAT64("double", "Double"),
        STRING("String", "String"),
        UUID("Uuid", "Uuid"),
        BYTES("byte[]", "byte[]"),
        RECORDS("Records", "Records"),
        STRUCT(null, null),
        ARRAY(null, null);

        final String javaType;
        final String boxedType;

        Kind(String javaType, String boxedType) {
            this.javaType = javaType;
            this.boxedType = boxedType;
        }
    }

    public static FieldType parse(String text) {
        if (text.startsWith("[]")) {
            return new FieldType(Kind.ARRAY, null, parse(text.substring(2)));
        }
        return switch (text) {
            case "bool" -> primitive(Kind.BOOL);
            case "int8" -> primitive(Kind.INT8);
            case "int16" -> primitive(Kind.INT16);
            case "uint16" -> primitive(Kind.UINT16);
            case "int32" -> primitive(Kind.INT32);
            case "uint32" -> primitive(Kind.UINT32);
            case "int64" -> primitive(Kind.INT64);
            case "float64" -> primitive(Kind.FLOAT64);
            case "string" -> primitive(Kind.STRING);
            case "uuid" -> primitive(Kind.UUID);
            case "bytes" -> primitive(Kind.BYTES);
            case "records" -> primitive(Kind.RECORDS);
            default -> new FieldType(Kind.STRUCT, text, null);
        };
    }

    private static FieldType primitive(Kind kind) {
        return new FieldType(kind, null, null);
    }

    public boolean isArray() {
        return kind == Kind.ARRAY;
    }

    public boolean isStruct() {
        return kind == Kind.STRUCT;
    }

    /** Types that may be null on the wire when the field's nullableVersions allow it. */
    public boolean canBeNullable() {
        return switch (kind) {
            case STRING, BYTES, RECORDS, STRUCT, ARRAY -> true;
            default -> false;
        };
    }

    public String javaType() {
        return switch (kind) {
            case STRUCT -> structName;
            case ARRAY -> "List<" + element.boxedType() + ">";
            default -> kind.javaType;
        };
    }

    public String boxedType() {
        return switch (kind) {
            case STRUCT -> structName;
            case ARRAY -> "List<" + element.boxedType() + ">";
            default -> kind.boxedType;
        };
    }
}
