package io.keyranger.datastore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Entities as lossless, typed JSON, one object per entity: the key with its ancestors, and every property as
 * {"type": …, "value": …} with {"excludeFromIndexes": true} where set. Integers travel as strings (64 bits),
 * timestamps as RFC 3339 with nanoseconds, blobs as base64. {@link #decode} is the exact inverse of {@link #encode}.
 */
public final class EntityCodec {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EntityCodec() {
    }

    public static ObjectNode encode(Entity entity) {
        ObjectNode root = NODES.objectNode();
        root.set("key", KeyJson.toRest(entity.getKey()));
        root.set("properties", properties(entity));
        return root;
    }

    private static ObjectNode properties(FullEntity<?> entity) {
        ObjectNode props = NODES.objectNode();
        for (String name : new java.util.TreeSet<>(entity.getNames())) {
            props.set(name, value(entity.getValue(name)));
        }
        return props;
    }

    /** One value as typed JSON, {"type": …, "value": …}, as in an export. */
    public static ObjectNode encodeValue(Value<?> value) {
        return value(value);
    }

    /**
     * One typed JSON value back, its keys in this project and database; a malformed one is a
     * {@link KeyRangerException} saying what is wrong.
     */
    public static Value<?> decodeValue(JsonNode node, String projectId, String databaseId) {
        try {
            return decodeValueOrThrow(node, projectId, databaseId);
        } catch (KeyRangerException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new KeyRangerException("Not a typed value: " + e.getMessage() + " in " + node);
        }
    }

    private static ObjectNode value(Value<?> value) {
        ObjectNode node = NODES.objectNode();
        Object raw = value.get();
        switch (value.getType()) {
            case NULL -> node.put("type", "null");
            case BOOLEAN -> node.put("type", "boolean").put("value", (Boolean) raw);
            case LONG -> node.put("type", "integer").put("value", raw.toString());
            case DOUBLE -> {
                double d = (Double) raw;
                node.put("type", "double");
                if (Double.isFinite(d)) {
                    node.put("value", d);
                } else {
                    node.put("value", Double.toString(d));
                }
            }
            case STRING -> node.put("type", "string").put("value", (String) raw);
            case TIMESTAMP -> node.put("type", "timestamp").put("value", raw.toString());
            case BLOB -> node.put("type", "blob").put("value",
                    Base64.getEncoder().encodeToString(((Blob) raw).toByteArray()));
            case KEY -> node.put("type", "key").set("value", KeyJson.toRest((Key) raw));
            case LAT_LNG -> node.put("type", "geo").set("value", NODES.objectNode()
                    .put("lat", ((LatLng) raw).getLatitude()).put("lng", ((LatLng) raw).getLongitude()));
            case ENTITY -> {
                FullEntity<?> embedded = (FullEntity<?>) raw;
                ObjectNode e = NODES.objectNode();
                if (embedded.getKey() instanceof Key key) {
                    e.set("key", KeyJson.toRest(key));
                }
                e.set("properties", properties(embedded));
                node.put("type", "entity").set("value", e);
            }
            case LIST -> {
                ArrayNode array = NODES.arrayNode();
                for (Object item : (List<?>) raw) {
                    array.add(value((Value<?>) item));
                }
                node.put("type", "array").set("value", array);
            }
            default -> throw new KeyRangerException("Cannot export a value of type " + value.getType());
        }
        if (value.excludeFromIndexes()) {
            node.put("excludeFromIndexes", true);
        }
        return node;
    }

    /** Decodes an entity, placing it in {@code projectId}/{@code databaseId} (the target of an import). */
    public static Entity decode(JsonNode root, String projectId, String databaseId) {
        Key key = key(root.path("key"), projectId, databaseId);
        Entity.Builder builder = Entity.newBuilder(key);
        root.path("properties").fields().forEachRemaining(f -> builder.set(f.getKey(),
                (Value<?>) decodeValueOrThrow(f.getValue(), projectId, databaseId)));
        return builder.build();
    }

    private static Value<?> decodeValueOrThrow(JsonNode node, String projectId, String databaseId) {
        String type = node.path("type").asText();
        JsonNode v = node.path("value");
        Value<?> plain = switch (type) {
            case "null" -> NullValue.of();
            case "boolean" -> BooleanValue.of(v.asBoolean());
            case "integer" -> LongValue.of(Long.parseLong(v.asText()));
            case "double" -> DoubleValue.of(v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText()));
            case "string" -> StringValue.of(v.asText());
            case "timestamp" -> TimestampValue.of(Timestamp.parseTimestamp(v.asText()));
            case "blob" -> BlobValue.of(Blob.copyFrom(Base64.getDecoder().decode(v.asText())));
            case "key" -> KeyValue.of(key(v, projectId, databaseId));
            case "geo" -> LatLngValue.of(LatLng.of(v.path("lat").asDouble(), v.path("lng").asDouble()));
            case "entity" -> {
                FullEntity.Builder<IncompleteKey> embedded = v.has("key")
                        ? FullEntity.newBuilder(key(v.path("key"), projectId, databaseId)) : FullEntity.newBuilder();
                v.path("properties").fields().forEachRemaining(f -> embedded.set(f.getKey(),
                        (Value<?>) decodeValueOrThrow(f.getValue(), projectId, databaseId)));
                yield EntityValue.of(embedded.build());
            }
            case "array" -> {
                List<Value<?>> items = new ArrayList<>();
                v.forEach(item -> items.add(decodeValueOrThrow(item, projectId, databaseId)));
                yield ListValue.of(items);
            }
            default -> throw new KeyRangerException("Unknown value type '" + type + "' in " + node);
        };
        return node.path("excludeFromIndexes").asBoolean(false)
                ? plain.toBuilder().setExcludeFromIndexes(true).build() : plain;
    }

    private static Key key(JsonNode json, String projectId, String databaseId) {
        JsonNode path = json.path("path");
        if (!path.isArray() || path.isEmpty()) {
            throw new KeyRangerException("A key needs a non-empty path: " + json);
        }
        String namespace = json.path("partitionId").path("namespaceId").asText("");
        JsonNode last = path.get(path.size() - 1);
        Key.Builder builder = last.has("name")
                ? Key.newBuilder(projectId, last.path("kind").asText(), last.path("name").asText(), databaseId)
                : Key.newBuilder(projectId, last.path("kind").asText(), Long.parseLong(last.path("id").asText()),
                        databaseId);
        builder.setNamespace(namespace);
        for (int i = 0; i < path.size() - 1; i++) {
            JsonNode e = path.get(i);
            builder.addAncestor(e.has("name") ? PathElement.of(e.path("kind").asText(), e.path("name").asText())
                    : PathElement.of(e.path("kind").asText(), Long.parseLong(e.path("id").asText())));
        }
        return builder.build();
    }
}
