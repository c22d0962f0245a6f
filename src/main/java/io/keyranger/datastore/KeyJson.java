package io.keyranger.datastore;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;

/** Keys in the Datastore REST v1 JSON form: partition id and path, with ids as strings. */
public final class KeyJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private KeyJson() {
    }

    public static ObjectNode toRest(Key key) {
        ObjectNode partition = NODES.objectNode().put("projectId", key.getProjectId());
        if (key.getDatabaseId() != null && !key.getDatabaseId().isEmpty()) {
            partition.put("databaseId", key.getDatabaseId());
        }
        partition.put("namespaceId", key.getNamespace());
        ArrayNode path = NODES.arrayNode();
        for (PathElement element : key.getAncestors()) {
            path.add(element(element.getKind(), element.getId(), element.getName()));
        }
        path.add(element(key.getKind(), key.getId(), key.getName()));
        return NODES.objectNode().<ObjectNode>set("partitionId", partition).set("path", path);
    }

    private static ObjectNode element(String kind, Long id, String name) {
        ObjectNode node = NODES.objectNode().put("kind", kind);
        return name != null ? node.put("name", name) : node.put("id", String.valueOf(id));
    }
}
