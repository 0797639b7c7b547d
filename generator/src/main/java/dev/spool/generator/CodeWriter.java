package dev.spool.generator;

/** Accumulates indented Java source lines. Not thread-safe. */
final class CodeWriter {

    private final StringBuilder out = new StringBuilder();
    private int indent;

    /** Writes one line; a line starting with '}' dedents first, one ending with '{' indents after. */
    CodeWriter line(String format, Object... args) {
        String text = args.length == 0 ? format : String.format(format, args);
        if (text.startsWith("}")) {
            indent--;
        }
        if (!text.isEmpty()) {
            out.append("    ".repeat(Math.max(indent, 0))).append(text);
        }
        out.append('\n');
        if (text.endsWith("{")) {
            indent++;
        }
        return this;
    }

    CodeWriter blank() {
        out.append('\n');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
