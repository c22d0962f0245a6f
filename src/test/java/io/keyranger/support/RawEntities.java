package io.keyranger.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.datastore.ConnectionSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;

/**
 * Entities exactly as the emulator's v1 REST API answers them (its own JSON: meanings, index flags, key partitions,
 * embedded keys and empty arrays as it keeps them), read with its {@code runQuery}, so tests compare what KeyRanger
 * wrote with what Google's own export and import wrote raw value by raw value, not through KeyRanger's or the client
 * library's idea of an entity.
 */
public final class RawEntities {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RawEntities() {
    }

    /** Every entity of {@code kind} in {@code namespace}, keyed by its key's raw JSON, each its raw entity JSON. */
    public static Map<String, JsonNode> of(ConnectionSpec conn, String namespace, String kind)
            throws IOException, InterruptedException {
        return of(conn, namespace, kind, 300);
    }

    /**
     * As above, {@code limit} entities a query: the emulator refuses an answer over 4 MiB, so entities near 1 MiB
     * are read a few at a time.
     */
    public static Map<String, JsonNode> of(ConnectionSpec conn, String namespace, String kind, int limit)
            throws IOException, InterruptedException {
        Map<String, JsonNode> all = new TreeMap<>();
        String cursor = null;
        while (true) {
            ObjectNode query = JSON.createObjectNode();
            query.putArray("kind").addObject().put("name", kind);
            query.put("limit", limit);
            if (cursor != null) {
                query.put("startCursor", cursor);
            }
            ObjectNode body = JSON.createObjectNode();
            body.putObject("partitionId").put("projectId", conn.projectId()).put("namespaceId", namespace);
            body.set("query", query);
            JsonNode batch = call(conn, ":runQuery", body).path("batch");
            for (JsonNode result : batch.path("entityResults")) {
                JsonNode entity = result.path("entity");
                all.put(JSON.writeValueAsString(entity.path("key")), entity);
            }
            String more = batch.path("moreResults").asText();
            if (batch.path("entityResults").isEmpty() || "NO_MORE_RESULTS".equals(more)) {
                return all;
            }
            cursor = batch.path("endCursor").asText();
        }
    }

    private static JsonNode call(ConnectionSpec conn, String verb, JsonNode body) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + conn.emulatorHost()
                        + "/v1/projects/" + conn.projectId() + verb))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("The emulator's " + verb + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }
}
