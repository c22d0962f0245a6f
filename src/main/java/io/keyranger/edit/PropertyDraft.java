package io.keyranger.edit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.query.Gql;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * One property as the editor shows it: a name, a type, the value as text, and whether it is indexed. Simple types
 * are plain text (an integer, 2.5, true, an RFC 3339 time, base64, KEY(Kind, id), "lat,lng"); an array or an
 * embedded entity is the typed JSON of an export. A key names its project and database where they are not the
 * connection's, as keys in that JSON always do. {@link #toValue} reads it back or says what is wrong with it.
 *
 * @param name    the property name
 * @param type    one of {@link #TYPES}
 * @param text    the value as text
 * @param indexed whether the property is indexed
 */
public record PropertyDraft(String name, String type, String text, boolean indexed) {
    /** The types the editor offers, as a user reads them. */
    public static final List<String> TYPES = List.of("string", "integer", "double", "boolean", "timestamp", "null",
            "key", "blob", "geo", "array", "entity");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Where the editor's keys live: KEY(...) literals and keys inside JSON are placed here. */
    public record Place(String projectId, String databaseId, String namespace) {
    }

    /** The draft of an existing value, as a connection to {@code place} shows it. */
    public static PropertyDraft of(String name, Value<?> value, Place place) {
        String type;
        String text;
        Object raw = value.get();
        switch (value.getType()) {
            case NULL -> {
                type = "null";
                text = "";
            }
            case STRING -> {
                type = "string";
                text = (String) raw;
            }
            case LONG -> {
                type = "integer";
                text = raw.toString();
            }
            case DOUBLE -> {
                type = "double";
                text = raw.toString();
            }
            case BOOLEAN -> {
                type = "boolean";
                text = raw.toString();
            }
            case TIMESTAMP -> {
                type = "timestamp";
                text = raw.toString();
            }
            case KEY -> {
                type = "key";
                text = Gql.keyLiteral((Key) raw, place.projectId(), place.databaseId());
            }
            case BLOB -> {
                type = "blob";
                text = Base64.getEncoder().encodeToString(((Blob) raw).toByteArray());
            }
            case LAT_LNG -> {
                type = "geo";
                text = ((LatLng) raw).getLatitude() + "," + ((LatLng) raw).getLongitude();
            }
            case LIST, ENTITY -> {
                type = value.getType() == ValueType.LIST ? "array" : "entity";
                text = pretty(EntityCodec.encodeValue(value).get("value"));
            }
            default -> throw new KeyRangerException("The editor cannot show a value of type " + value.getType() + ".");
        }
        // a list's elements carry their own flags in its JSON; the box then says "indexed" and changes nothing
        return new PropertyDraft(name, type, text, value instanceof ListValue || !value.excludeFromIndexes());
    }

    private static String pretty(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the type is edited as JSON (several lines) rather than one line of text. */
    public static boolean isJson(String type) {
        return "array".equals(type) || "entity".equals(type);
    }

    /**
     * The name's problem, or null: a name is needed, names starting and ending with two underscores are Datastore's,
     * and a name appears once.
     */
    public String nameProblem(List<String> otherNames) {
        if (name == null || name.isBlank()) {
            return "A property needs a name.";
        }
        if (name.matches("__.*__")) {
            return "Names like " + name + " are reserved by Datastore.";
        }
        if (otherNames.contains(name)) {
            return "'" + name + "' is there twice.";
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > 1500) {
            return "A property name is at most 1,500 bytes.";
        }
        return null;
    }

    /**
     * The value, given the one this draft was made from (null for a new property). A draft whose type and text are as
     * {@link #of} showed them gives the original back, with what its text does not show (a meaning: 15 on an ndb
     * TextProperty, 22 on a compressed BlobProperty), only its index flag as the draft says; a renamed property keeps
     * its value so. A changed draft of the original's type keeps its meaning, so editing an ndb text leaves it a text.
     */
    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore and by ndb apps
    public Value<?> toValue(Place place, Value<?> original) {
        if (original == null) {
            return toValue(place);
        }
        PropertyDraft shown = of(name, original, place);
        if (type.equals(shown.type) && Objects.equals(text, shown.text)) {
            return indexedAsDrafted(original);
        }
        Value<?> edited = toValue(place);
        int meaning = EntityCodec.meaning(original);
        return meaning != 0 && edited.getType() == original.getType()
                ? edited.toBuilder().setMeaning(meaning).build() : edited;
    }

    /** The value, or a {@link KeyRangerException} whose message says what to type instead. */
    public Value<?> toValue(Place place) {
        String t = text == null ? "" : text.strip();
        Value<?> plain = switch (type) {
            case "null" -> NullValue.of();
            case "string" -> StringValue.of(text == null ? "" : text);
            case "integer" -> {
                if (!t.matches("[-+]?\\d+")) {
                    throw new KeyRangerException("An integer is a whole number such as 42 or -7.");
                }
                try {
                    yield LongValue.of(Long.parseLong(t));
                } catch (NumberFormatException e) {
                    throw new KeyRangerException("An integer is between -9223372036854775808 and 9223372036854775807.");
                }
            }
            case "double" -> {
                try {
                    double d = Double.parseDouble(t);
                    if (t.isEmpty() || t.matches(".*[dDfF]$")) {
                        throw new NumberFormatException();
                    }
                    yield DoubleValue.of(d);
                } catch (NumberFormatException e) {
                    throw new KeyRangerException("A double is a number such as 2.5, -0.1 or 1e9 (or NaN, Infinity).");
                }
            }
            case "boolean" -> {
                if (!t.equals("true") && !t.equals("false")) {
                    throw new KeyRangerException("A boolean is true or false.");
                }
                yield BooleanValue.of(Boolean.parseBoolean(t));
            }
            case "timestamp" -> {
                try {
                    yield TimestampValue.of(Timestamp.parseTimestamp(t));
                } catch (RuntimeException e) {
                    throw new KeyRangerException("A timestamp is RFC 3339 in UTC, such as 2024-05-01T09:30:00Z.");
                }
            }
            case "key" -> KeyValue.of(Gql.key(t, place.projectId(), place.databaseId(), place.namespace()));
            case "blob" -> {
                try {
                    yield BlobValue.of(Blob.copyFrom(Base64.getDecoder().decode(t)));
                } catch (IllegalArgumentException e) {
                    throw new KeyRangerException("A blob is written in base64, such as SGVsbG8=.");
                }
            }
            case "geo" -> {
                String[] parts = t.split(",");
                try {
                    if (parts.length != 2) {
                        throw new NumberFormatException();
                    }
                    double lat = Double.parseDouble(parts[0].strip());
                    double lng = Double.parseDouble(parts[1].strip());
                    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) {
                        throw new KeyRangerException("A latitude is within ±90 and a longitude within ±180.");
                    }
                    yield LatLngValue.of(LatLng.of(lat, lng));
                } catch (NumberFormatException e) {
                    throw new KeyRangerException("A geo point is latitude,longitude such as 48.85,2.35.");
                }
            }
            case "array", "entity" -> json(t, place);
            default -> throw new KeyRangerException("Unknown type '" + type + "'; one of " + TYPES + ".");
        };
        return indexedAsDrafted(plain);
    }

    /** {@code value} with this draft's index flag; a list keeps its elements' own flags unless the draft unindexes. */
    private Value<?> indexedAsDrafted(Value<?> value) {
        if (value instanceof ListValue list) { // Datastore keeps the flag on each element, never on the list
            return indexed ? value : ListValue.of(list.get().stream().<Value<?>>map(v -> v.toBuilder()
                    .setExcludeFromIndexes(true).build()).toList());
        }
        return value.excludeFromIndexes() == !indexed ? value
                : value.toBuilder().setExcludeFromIndexes(!indexed).build();
    }

    private Value<?> json(String t, Place place) {
        JsonNode node;
        try {
            node = JSON.readTree(t.isEmpty() ? (type.equals("array") ? "[]" : "{}") : t);
        } catch (JsonProcessingException e) {
            throw new KeyRangerException("Not JSON: " + e.getOriginalMessage() + " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ").");
        }
        if (type.equals("array") && !node.isArray()) {
            throw new KeyRangerException("An array is a JSON list of typed values, such as "
                    + "[{\"type\": \"integer\", \"value\": \"1\"}, {\"type\": \"string\", \"value\": \"a\"}].");
        }
        if (type.equals("entity") && (!node.isObject() || !node.has("properties"))) {
            throw new KeyRangerException("An embedded entity is {\"properties\": {\"name\": {\"type\": \"string\", "
                    + "\"value\": \"x\"}}}.");
        }
        ObjectNode typed = JSON.createObjectNode().put("type", type);
        typed.set("value", node);
        return EntityCodec.decodeValue(typed, place.projectId(), place.databaseId());
    }
}
