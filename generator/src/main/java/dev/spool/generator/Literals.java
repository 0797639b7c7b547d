package dev.spool.generator;

/** Turns spec default values into Java literals. Thread-safe. */
final class Literals {

    private Literals() {
    }

    /** The Java expression for the field's default value. */
    static String defaultValue(FieldSpec field) {
        FieldType type = field.type();
        String given = field.defaultValue();
        boolean nullDefault = "null".equals(given);
        return switch (type.kind()) {
            case BOOL -> given == null ? "false" : String.valueOf(Boolean.parseBoolean(given));
            case INT8 -> "(byte) " + integer(given);
            case INT16 -> "(short) " + integer(given);
            case UINT16, INT32 -> String.valueOf(integer(given));
            case UINT32, INT64 -> integer(given) + "L";
            case FLOAT64 -> given == null ? "0.0" : Double.parseDouble(given) + "d";
            case STRING -> nullDefault ? "null" : quote(given == null ? "" : given);
            case UUID -> "Uuid.ZERO_UUID";
            case BYTES -> nullDefault ? "null" : "new byte[0]";
            case RECORDS -> "null";
            case STRUCT -> nullDefault ? "null" : "new " + type.structName() + "()";
            case ARRAY -> nullDefault ? "null" : "new ArrayList<>(0)";
        };
    }

    /** A boolean expression: is {@code value} the field's default (so a tagged field is omitted)? */
    static String isDefault(FieldSpec field, String value) {
        String given = field.defaultValue();
        boolean nullDefault = "null".equals(given);
        return switch (field.type().kind()) {
            case BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64 -> value + " == " + defaultValue(field);
            case FLOAT64 -> "Double.compare(" + value + ", " + defaultValue(field) + ") == 0";
            case STRING -> "Objects.equals(" + value + ", " + defaultValue(field) + ")";
            case UUID -> value + ".equals(Uuid.ZERO_UUID)";
            case BYTES -> nullDefault ? value + " == null" : "(" + value + " != null && " + value + ".length == 0)";
            case RECORDS -> value + " == null";
            case STRUCT -> nullDefault ? value + " == null"
                    : "(" + value + " != null && " + value + ".equals(" + defaultValue(field) + "))";
            case ARRAY -> nullDefault ? value + " == null" : "(" + value + " != null && " + value + ".isEmpty())";
        };
    }

    private static long integer(String given) {
        if (given == null || given.isEmpty()) {
            return 0;
        }
        return Long.decode(given);
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                default -> quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
