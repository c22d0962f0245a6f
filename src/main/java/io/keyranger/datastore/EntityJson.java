package io.keyranger.datastore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.Value;
import io.keyranger.keys.KeyFormat;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Readable JSON for entities and values, for the details pane and table cells: keys in {@link KeyFormat},
 * timestamps in ISO-8601, blobs in base64, geo points as {lat, lng}, embedded entities as objects. In an entity's JSON,
 * a key value whose project, database or namespace is not the entity's says so: {@code Customer:"c1" (project
 * another-project)}.
 */
public final class EntityJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EntityJson() {
    }

    public static String toPrettyJson(Entity entity) {
        ObjectNode root = NODES.objectNode();
        root.put("key", KeyFormat.format(entity.getKey()));
        if (!entity.getKey().getNamespace().isEmpty()) {
            root.put("namespace", entity.getKey().getNamespace());
        }
        root.set("properties", properties(entity, entity.getKey()));
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render entity", e);
        }
    }

    /** A short one-line rendering of a value for a table cell. */
    public static String cell(Value<?> value) {
        JsonNode node = toNode(value, null);
        return node.isTextual() ? node.asText() : node.toString();
    }

    /** {@code home}: the key of the entity shown, whose partition key values are not said to be in; null: none. */
    private static ObjectNode properties(BaseEntity<?> entity, Key home) {
        ObjectNode props = NODES.objectNode();
        for (String name : entity.getNames()) {
            props.set(name, toNode(entity.getValue(name), home));
        }
        return props;
    }

    private static String keyValue(Key key, Key home) {
        List<String> where = new ArrayList<>();
        if (home != null && !key.getProjectId().equals(home.getProjectId())) {
            where.add("project " + key.getProjectId());
        }
        String database = key.getDatabaseId() == null ? "" : key.getDatabaseId();
        if (home != null && !database.equals(home.getDatabaseId() == null ? "" : home.getDatabaseId())) {
            where.add("database " + (database.isEmpty() ? "(default)" : database));
        }
        if (home != null && !key.getNamespace().equals(home.getNamespace())) {
            where.add("namespace " + (key.getNamespace().isEmpty() ? "(default)" : key.getNamespace()));
        }
        return KeyFormat.format(key) + (where.isEmpty() ? "" : " (" + String.join(", ", where) + ")");
    }

    static JsonNode toNode(Value<?> value, Key home) {
        Object raw = value.get();
        return switch (value.getType()) {
            case NULL -> NODES.nullNode();
            case STRING -> NODES.textNode((String) raw);
            case LONG -> NODES.numberNode((Long) raw);
            case DOUBLE -> NODES.numberNode((Double) raw);
            case BOOLEAN -> NODES.booleanNode((Boolean) raw);
            case TIMESTAMP -> NODES.textNode(raw.toString());
            case KEY -> NODES.textNode(keyValue((Key) raw, home));
            case BLOB -> NODES.textNode("base64:" + Base64.getEncoder().encodeToString(((Blob) raw).toByteArray()));
            case LAT_LNG -> NODES.objectNode().put("lat", ((LatLng) raw).getLatitude())
                    .put("lng", ((LatLng) raw).getLongitude());
            case ENTITY -> properties((FullEntity<IncompleteKey>) raw, home);
            case LIST -> list((List<? extends Value<?>>) raw, home);
            default -> NODES.textNode(String.valueOf(raw));
        };
    }

    private static ArrayNode list(List<? extends Value<?>> values, Key home) {
        ArrayNode array = NODES.arrayNode();
        values.forEach(v -> array.add(toNode(v, home)));
        return array;
    }
}
