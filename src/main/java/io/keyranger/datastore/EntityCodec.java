package io.keyranger.datastore;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
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
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;

/**
 * Entities as lossless, typed JSON, one object per entity: the key with its ancestors, and every property as
 * {"type": …, "value": …} with {"excludeFromIndexes": true} and {"meaning": N} where set. Integers travel as strings
 * (64 bits), timestamps as RFC 3339 with nanoseconds, blobs as base64; key values and embedded entities' keys (complete
 * or not) with their own project and database. {@link #decode} is the exact inverse of {@link #encode} in the entity's
 * own project; decoded into another project, it places key values as Google's managed import does (see there), so
 * unindexed key values keep pointing at the source project. Every key this codec writes, and wrote before it kept
 * meanings, names its project; only a hand-written key names none, and goes to the target.
 */
public final class EntityCodec {
    private EntityCodec() {
    }

    public static ObjectNode encode(Entity entity) {
        return JsonTree.of(json -> write(json, entity));
    }

    /** {@code entity} as one line of JSON: {@link #encode}'s tree as text, without building the tree. */
    public static String line(Entity entity) {
        return JsonTree.line(json -> write(json, entity));
    }

    /** Writes {@code entity} as {@link #encode} holds it, without building the tree. */
    public static void write(JsonGenerator json, Entity entity) throws IOException {
        json.writeStartObject();
        json.writeFieldName("key");
        KeyJson.write(json, entity.getKey());
        json.writeFieldName("properties");
        writeProperties(json, entity);
        json.writeEndObject();
    }

    /** Writes the properties of {@code entity} as {@link #encode} holds them: one field a property, in name order. */
    public static void writeProperties(JsonGenerator json, FullEntity<?> entity) throws IOException {
        json.writeStartObject();
        for (String name : new TreeSet<>(entity.getNames())) {
            json.writeFieldName(name);
            writeValue(json, entity.getValue(name));
        }
        json.writeEndObject();
    }

    /** One value as typed JSON, {"type": …, "value": …}, as in an export. */
    public static ObjectNode encodeValue(Value<?> value) {
        return JsonTree.of(json -> writeValue(json, value));
    }

    /**
     * One typed JSON value back, its keys in the project and database they name (in this project and database when
     * they name none); a malformed one is a {@link KeyRangerException} saying what is wrong.
     */
    public static Value<?> decodeValue(JsonNode node, String projectId, String databaseId) {
        try {
            return decodeValueOrThrow(node, new Placement(projectId, databaseId));
        } catch (KeyRangerException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new KeyRangerException("Not a typed value: " + e.getMessage() + " in " + node);
        }
    }

    /** Writes {@code value} as {@link #encodeValue} holds it, without building the tree. */
    public static void writeValue(JsonGenerator json, Value<?> value) throws IOException {
        json.writeStartObject();
        Object raw = value.get();
        switch (value.getType()) {
            case NULL -> json.writeStringField("type", "null");
            case BOOLEAN -> {
                json.writeStringField("type", "boolean");
                json.writeBooleanField("value", (Boolean) raw);
            }
            case LONG -> typed(json, "integer", raw.toString());
            case DOUBLE -> {
                double d = (Double) raw;
                json.writeStringField("type", "double");
                if (Double.isFinite(d)) {
                    json.writeNumberField("value", d);
                } else {
                    json.writeStringField("value", Double.toString(d));
                }
            }
            case STRING -> typed(json, "string", (String) raw);
            case TIMESTAMP -> typed(json, "timestamp", raw.toString());
            case BLOB -> typed(json, "blob", Base64.getEncoder().encodeToString(((Blob) raw).toByteArray()));
            case KEY -> {
                json.writeStringField("type", "key");
                json.writeFieldName("value");
                KeyJson.write(json, (Key) raw);
            }
            case LAT_LNG -> {
                json.writeStringField("type", "geo");
                json.writeObjectFieldStart("value");
                json.writeNumberField("lat", ((LatLng) raw).getLatitude());
                json.writeNumberField("lng", ((LatLng) raw).getLongitude());
                json.writeEndObject();
            }
            case ENTITY -> {
                FullEntity<?> embedded = (FullEntity<?>) raw;
                json.writeStringField("type", "entity");
                json.writeObjectFieldStart("value");
                if (embedded.getKey() != null) {
                    json.writeFieldName("key");
                    KeyJson.write(json, embedded.getKey());
                }
                json.writeFieldName("properties");
                writeProperties(json, embedded);
                json.writeEndObject();
            }
            case LIST -> {
                json.writeStringField("type", "array");
                json.writeArrayFieldStart("value");
                for (Object item : (List<?>) raw) {
                    writeValue(json, (Value<?>) item);
                }
                json.writeEndArray();
            }
            default -> throw new KeyRangerException("Cannot export a value of type " + value.getType());
        }
        if (value.excludeFromIndexes()) {
            json.writeBooleanField("excludeFromIndexes", true);
        }
        int meaning = meaning(value);
        if (meaning != 0) {
            json.writeNumberField("meaning", meaning);
        }
        json.writeEndObject();
    }

    private static void typed(JsonGenerator json, String type, String value) throws IOException {
        json.writeStringField("type", type);
        json.writeStringField("value", value);
    }

    /**
     * A value's meaning (15 on an ndb TextProperty, 22 on a compressed BlobProperty), or 0. The client keeps it but
     * reads it out only through a builder, and marks it deprecated; Datastore keeps it and App Engine apps rely on it.
     */
    @SuppressWarnings("deprecation")
    public static int meaning(Value<?> value) {
        return value.toBuilder().getMeaning();
    }

    /**
     * Decodes an entity, placing it in {@code projectId}/{@code databaseId} (the target of an import). Its key values
     * and embedded keys keep the project and database they name while the entity stays in its own project, so a
     * restore is exact. When it moves to another project, its keys are placed as Google's managed {@code :import} into
     * another project places them ({@link ImportPlacement}): keys reached through indexed values move into the target,
     * keys under unindexed values keep the project they name (a staging-to-prod import leaves those pointing at
     * staging). Keys that name no project (a line written by hand; KeyRanger always wrote the project) go to the
     * target.
     */
    public static Entity decode(JsonNode root, String projectId, String databaseId) {
        JsonNode keyJson = root.path("key");
        if (!(KeyJson.fromRest(keyJson, projectId, databaseId) instanceof Key key)) {
            throw new KeyRangerException("An entity's key needs an id or a name at the end of its path: " + keyJson);
        }
        Placement placement = new Placement(projectId, databaseId);
        Entity.Builder builder = Entity.newBuilder(key);
        root.path("properties").fields().forEachRemaining(f -> builder.set(f.getKey(),
                (Value<?>) decodeValueOrThrow(f.getValue(), placement)));
        boolean moves = KeyJson.namesProject(keyJson) && !partition(keyJson, "projectId").equals(projectId);
        return moves ? ImportPlacement.place(builder.build(), projectId) : builder.build();
    }

    private static String partition(JsonNode key, String field) {
        return key.path("partitionId").path(field).asText("");
    }

    /** Where decoded keys inside values go: their own partition, or the target's when they name no project. */
    private record Placement(String projectId, String databaseId) {
        IncompleteKey of(JsonNode key) {
            return KeyJson.namesProject(key)
                    ? KeyJson.fromRest(key, partition(key, "projectId"), partition(key, "databaseId"))
                    : KeyJson.fromRest(key, projectId, databaseId);
        }
    }

    @SuppressWarnings("deprecation") // meaning: deprecated in the client, yet kept by Datastore and read by ndb apps
    private static Value<?> decodeValueOrThrow(JsonNode node, Placement placement) {
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
            case "key" -> {
                if (!(placement.of(v) instanceof Key key)) {
                    throw new KeyRangerException("A key value needs an id or a name at the end of its path: " + v);
                }
                yield KeyValue.of(key);
            }
            case "geo" -> LatLngValue.of(LatLng.of(v.path("lat").asDouble(), v.path("lng").asDouble()));
            case "entity" -> {
                FullEntity.Builder<IncompleteKey> embedded = v.has("key")
                        ? FullEntity.newBuilder(placement.of(v.path("key"))) : FullEntity.newBuilder();
                v.path("properties").fields().forEachRemaining(f -> embedded.set(f.getKey(),
                        (Value<?>) decodeValueOrThrow(f.getValue(), placement)));
                yield EntityValue.of(embedded.build());
            }
            case "array" -> {
                List<Value<?>> items = new ArrayList<>();
                v.forEach(item -> items.add(decodeValueOrThrow(item, placement)));
                yield ListValue.of(items);
            }
            default -> throw new KeyRangerException("Unknown value type '" + type + "' in " + node);
        };
        boolean unindexed = node.path("excludeFromIndexes").asBoolean(false);
        int meaning = node.path("meaning").asInt(0);
        if (!unindexed && meaning == 0) {
            return plain;
        }
        return plain.toBuilder().setExcludeFromIndexes(unindexed).setMeaning(meaning).build();
    }
}
