package dev.spool.protocol.types;

import java.util.Arrays;
import java.util.List;

/** A tagged field this version of the spec does not know: its tag and raw bytes. Immutable. */
public record RawTaggedField(int tag, byte[] data) {

    public static int count(List<RawTaggedField> fields) {
        return fields == null ? 0 : fields.size();
    }

    /** Bytes taken on the wire by these fields: tag, size and data of each. */
    public static int totalSize(List<RawTaggedField> fields) {
        if (fields == null) {
            return 0;
        }
        int size = 0;
        for (RawTaggedField field : fields) {
            size += Sizes.unsignedVarint(field.tag) + Sizes.unsignedVarint(field.data.length) + field.data.length;
        }
        return size;
    }

    /** Equality that treats a missing list as an empty one. */
    public static boolean sameFields(List<RawTaggedField> a, List<RawTaggedField> b) {
        if (count(a) != count(b)) {
            return false;
        }
        for (int i = 0; i < count(a); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RawTaggedField that && tag == that.tag && Arrays.equals(data, that.data);
    }

    @Override
    public int hashCode() {
        return 31 * tag + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "RawTaggedField(tag=" + tag + ", " + data.length + " bytes)";
    }
}
