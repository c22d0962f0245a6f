package io.keyranger.datastore;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything needed to reach one Datastore database: either a local emulator ({@code emulatorHost}) or a project
 * with optional named database and service-account key file. It never holds a secret, only the key file's path.
 *
 * @param emulatorHost    host:port of an emulator, or null for a real project
 * @param projectId       the project id (with an emulator, any id)
 * @param databaseId      a named database, or "" for the default one
 * @param namespace       the namespace to work in, "" for the default one
 * @param credentialsFile a service-account key file, or null for Application Default Credentials
 * @param readOnly        whether writing templates are refused on this connection
 */
public record ConnectionSpec(String emulatorHost, String projectId, String databaseId, String namespace,
                             Path credentialsFile, boolean readOnly) {

    public static final String DEFAULT_EMULATOR_PROJECT = "demo-project";

    public ConnectionSpec {
        Objects.requireNonNull(projectId, "projectId");
        databaseId = databaseId == null ? "" : databaseId;
        namespace = namespace == null ? "" : namespace;
    }

    public static ConnectionSpec emulator(String hostPort, String projectId) {
        return new ConnectionSpec(hostPort, projectId, "", "", null, false);
    }

    public boolean isEmulator() {
        return emulatorHost != null && !emulatorHost.isBlank();
    }

    public ConnectionSpec withNamespace(String ns) {
        return new ConnectionSpec(emulatorHost, projectId, databaseId, ns, credentialsFile, readOnly);
    }

    /** A short, secret-free description for status bars and logs. */
    public String describe() {
        String target = isEmulator() ? "emulator " + emulatorHost + " / " + projectId : "project " + projectId;
        if (!databaseId.isEmpty()) {
            target += " / database " + databaseId;
        }
        return target + (readOnly ? " (read-only)" : "");
    }
}
