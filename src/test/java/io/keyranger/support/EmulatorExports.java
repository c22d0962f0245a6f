package io.keyranger.support;

import io.keyranger.datastore.ConnectionSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/** The emulator's own managed export and import (its {@code :export} and {@code :import} calls), for tests. */
public final class EmulatorExports {
    private EmulatorExports() {
    }

    /** Exports {@code conn}'s project (with an {@code entity_filter} JSON, or null) into a new folder below {@code dir}. */
    public static Path export(ConnectionSpec conn, Path dir, String filter) throws IOException, InterruptedException {
        Path out = dir.resolve("export-" + System.nanoTime());
        call(conn, ":export", "{\"output_url_prefix\": \"" + out + "\"" + (filter == null ? ""
                : ", \"entity_filter\": " + filter) + "}");
        return out;
    }

    /** Loads the export whose overall metadata file is {@code metadata} into {@code conn}'s project. */
    public static void importInto(ConnectionSpec conn, Path metadata) throws IOException, InterruptedException {
        call(conn, ":import", "{\"input_url\": \"" + metadata + "\"}");
    }

    private static void call(ConnectionSpec conn, String verb, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://"
                + conn.emulatorHost() + "/v1/projects/" + conn.projectId() + verb))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("The emulator's " + verb + " answered " + response.statusCode() + ": "
                    + response.body());
        }
    }
}
