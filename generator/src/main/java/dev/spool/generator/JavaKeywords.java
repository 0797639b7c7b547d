package dev.spool.generator;

import java.util.Set;

/** Java's reserved words, which a spec field name must not become. Thread-safe. */
final class JavaKeywords {

    private static final Set<String> KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
            "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "record", "var", "yield");

    private JavaKeywords() {
    }

    static boolean isKeyword(String name) {
        return KEYWORDS.contains(name);
    }
}
