package io.keyranger.datastore;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys in the Datastore REST v1 JSON form: partition id and path, with ids as strings. An incomplete key (an embedded
 * entity's, say) has a last path element with a kind and neither id nor name.
 */
public final class KeyJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private KeyJson() {
    }

    public static ObjectNode toRest(IncompleteKey key) {
        return JsonTree.of(json -> write(json, key));
    }

    /** Writes {@code key} as {@link #toRest} holds it, field by field, without building the tree. */
    public static void write(JsonGenerator json, IncompleteKey key) throws IOException {
        json.writeStartObject();
        json.writeObjectFieldStart("partitionId");
        json.writeStringField("projectId", key.getProjectId());
        if (key.getDatabaseId() != null && !key.getDatabaseId().isEmpty()) {
            json.writeStringField("databaseId", key.getDatabaseId());
        }
        json.writeStringField("namespaceId", key.getNamespace());
        json.writeEndObject();
        json.writeArrayFieldStart("path");
        for (PathElement element : key.getAncestors()) {
            element(json, element.getKind(), element.getId(), element.getName());
        }
        if (key instanceof Key complete) {
            element(json, complete.getKind(), complete.getId(), complete.getName());
        } else {
            json.writeStartObject();
            json.writeStringField("kind", key.getKind());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void element(JsonGenerator json, String kind, Long id, String name) throws IOException {
        json.writeStartObject();
        json.writeStringField("kind", kind);
        if (name != null) {
            json.writeStringField("name", name);
        } else {
            json.writeStringField("id", String.valueOf(id));
        }
        json.writeEndObject();
    }

    /** Whether {@code json} names its own project (KeyRanger always writes it; a key written by hand may not). */
    public static boolean namesProject(JsonNode json) {
        return !json.path("partitionId").path("projectId").asText("").isEmpty();
    }

    /** Whether the last element of {@code json}'s path has an id or a name. */
    public static boolean isComplete(JsonNode json) {
        JsonNode path = json.path("path");
        JsonNode last = path.isArray() && !path.isEmpty() ? path.get(path.size() - 1) : NODES.objectNode();
        return last.has("id") || last.has("name");
    }

    /**
     * The key {@code json} describes, in {@code projectId}/{@code databaseId} (not in the project and database it
     * names, if any: where a key goes is its reader's decision); a {@link Key} when complete, else an incomplete key.
     */
    public static IncompleteKey fromRest(JsonNode json, String projectId, String databaseId) {
        JsonNode path = json.path("path");
        if (!path.isArray() || path.isEmpty()) {
            throw new KeyRangerException("A key needs a non-empty path: " + json);
        }
        String namespace = json.path("partitionId").path("namespaceId").asText("");
        JsonNode last = path.get(path.size() - 1);
        String kind = last.path("kind").asText();
        if (!isComplete(json)) {
            IncompleteKey.Builder builder = IncompleteKey.newBuilderWithDatabaseId(projectId, kind, databaseId)
                    .setNamespace(namespace);
            ancestors(path).forEach(builder::addAncestor);
            return builder.build();
        }
        Key.Builder builder = last.has("name") ? Key.newBuilder(projectId, kind, last.path("name").asText(), databaseId)
                : Key.newBuilder(projectId, kind, Long.parseLong(last.path("id").asText()), databaseId);
        builder.setNamespace(namespace);
        ancestors(path).forEach(builder::addAncestor);
        return builder.build();
    }

    private static List<PathElement> ancestors(JsonNode path) {
        List<PathElement> out = new ArrayList<>();
        for (int i = 0; i < path.size() - 1; i++) {
            JsonNode e = path.get(i);
            if (!e.has("name") && !e.has("id")) {
                throw new KeyRangerException("Only a key's last path element may lack an id or name: " + path);
            }
            out.add(e.has("name") ? PathElement.of(e.path("kind").asText(), e.path("name").asText())
                    : PathElement.of(e.path("kind").asText(), Long.parseLong(e.path("id").asText())));
        }
        return out;
    }
}
