package dev.spool.generator;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads Kafka's JSON message specifications (JSON with // comments). Thread-safe. */
public final class SpecParser {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private SpecParser() {
    }

    public static MessageSpec parse(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        }
    }

    public static MessageSpec parse(InputStream in, String source) throws IOException {
        JsonNode root = MAPPER.readTree(in);
        if (root == null || !root.has("name")) {
            throw new IOException("not a message spec: " + source);
        }
        Versions valid = Versions.parse(text(root, "validVersions"), Versions.NONE);
        Versions flexible = Versions.parse(text(root, "flexibleVersions"), Versions.NONE);
        Map<String, List<FieldSpec>> common = new LinkedHashMap<>();
        JsonNode commonNode = root.get("commonStructs");
        if (commonNode != null) {
            for (JsonNode struct : commonNode) {
                common.put(struct.get("name").asText(), fields(struct.get("fields"), source));
            }
        }
        Integer apiKey = root.has("apiKey") ? root.get("apiKey").asInt() : null;
        return new MessageSpec(root.get("name").asText(), root.get("type").asText(), apiKey,
                valid, flexible, fields(root.get("fields"), source), common);
    }

    private static List<FieldSpec> fields(JsonNode array, String source) {
        List<FieldSpec> result = new ArrayList<>();
        if (array == null) {
            return result;
        }
        for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
            result.add(field(it.next(), source));
        }
        return result;
    }

    private static FieldSpec field(JsonNode node, String source) {
        String name = node.get("name").asText();
        Versions tagged = Versions.parse(text(node, "taggedVersions"), Versions.NONE);
        // A field that is only ever tagged may leave its versions out: they are its tagged versions (Kafka's rule).
        Versions versions = Versions.parse(text(node, "versions"), tagged.isEmpty() ? null : tagged);
        if (versions == null) {
            throw new IllegalArgumentException(source + ": field " + name + " has no versions");
        }
        Integer tag = node.has("tag") ? node.get("tag").asInt() : null;
        if (tag != null && tagged.isEmpty()) {
            throw new IllegalArgumentException(source + ": tagged field " + name + " has no taggedVersions");
        }
        return new FieldSpec(
                name,
                FieldType.parse(node.get("type").asText()),
                versions,
                Versions.parse(text(node, "nullableVersions"), Versions.NONE),
                tagged,
                tag,
                text(node, "default"),
                node.path("ignorable").asBoolean(false),
                node.path("mapKey").asBoolean(false),
                Versions.parse(text(node, "flexibleVersions"), null),
                fields(node.get("fields"), source));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
