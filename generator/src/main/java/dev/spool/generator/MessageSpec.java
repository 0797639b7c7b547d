package dev.spool.generator;

import java.util.List;
import java.util.Map;

/**
 * A parsed message specification file. Immutable.
 *
 * @param type          "request", "response", "header", "data", "metadata", "coordinator-key" or "coordinator-value"
 * @param apiKey        the API key of requests and responses, or null
 * @param commonStructs struct definitions shared by several fields, by name
 */
public record MessageSpec(
        String name,
        String type,
        Integer apiKey,
        Versions validVersions,
        Versions flexibleVersions,
        List<FieldSpec> fields,
        Map<String, List<FieldSpec>> commonStructs) {

    /** The name of the generated Java class: the spec's name with "Data" (once). */
    public String className() {
        return name.endsWith("Data") ? name : name + "Data";
    }
}
