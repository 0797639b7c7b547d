package dev.spool.generator;

import java.util.List;

/**
 * One field of a message or struct spec. Immutable.
 *
 * @param fields the fields of an inline struct (or array of struct) type; empty otherwise
 * @param flexibleVersions where this field uses compact encodings, when the field overrides the
 *                         message's flexible versions (the request header's client id does)
 */
public record FieldSpec(
        String name,
        FieldType type,
        Versions versions,
        Versions nullableVersions,
        Versions taggedVersions,
        Integer tag,
        String defaultValue,
        boolean ignorable,
        boolean mapKey,
        Versions flexibleVersions,
        List<FieldSpec> fields) {

    public boolean isTagged() {
        return tag != null;
    }

    /** The Java name: the spec's PascalCase name with a lowercase first letter. */
    public String javaName() {
        String camel = Character.toLowerCase(name.charAt(0)) + name.substring(1);
        return JavaKeywords.isKeyword(camel) ? camel + "Value" : camel;
    }

    /** The name after "set" or "find": the spec's name with an uppercase first letter (the group records spell theirs in camelCase). */
    public String capitalName() {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** Versions in which this field is written among the fixed fields (not tagged). */
    public Versions fixedVersions() {
        if (!isTagged()) {
            return versions;
        }
        // A field tagged from some version on is fixed before it: taggedVersions always run to the end.
        return new Versions(versions.lowest(), Math.min(versions.highest(), taggedVersions.lowest() - 1));
    }
}
