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
 * @param server          what kind of server it is (an emulator host is an emulator unless said otherwise)
 */
public record ConnectionSpec(String emulatorHost, String projectId, String databaseId, String namespace,
                             Path credentialsFile, boolean readOnly, ServerType server) {

    public static final String DEFAULT_EMULATOR_PROJECT = "demo-project";

    public ConnectionSpec {
        Objects.requireNonNull(projectId, "projectId");
        databaseId = databaseId == null ? "" : databaseId;
        namespace = namespace == null ? "" : namespace;
        boolean local = emulatorHost != null && !emulatorHost.isBlank();
        if (server == null) {
            server = local ? ServerType.EMULATOR : ServerType.PRODUCTION;
        }
        if (local == (server == ServerType.PRODUCTION)) {
            throw new IllegalArgumentException(server + " does not go with host " + emulatorHost);
        }
    }

    /** A connection to an emulator (with a host) or to production (without). */
    public ConnectionSpec(String emulatorHost, String projectId, String databaseId, String namespace,
                          Path credentialsFile, boolean readOnly) {
        this(emulatorHost, projectId, databaseId, namespace, credentialsFile, readOnly, null);
    }

    /** The legacy Datastore emulator at {@code hostPort}. */
    public static ConnectionSpec emulator(String hostPort, String projectId) {
        return new ConnectionSpec(hostPort, projectId, "", "", null, false);
    }

    /** An emulator of type {@code server} ({@link ServerType#isEmulator}) at {@code hostPort}. */
    public static ConnectionSpec emulator(String hostPort, String projectId, ServerType server) {
        if (!server.isEmulator()) {
            throw new IllegalArgumentException(server + " is not an emulator");
        }
        return new ConnectionSpec(hostPort, projectId, "", "", null, false, server);
    }

    /** A production model server (keyranger model-server) at {@code hostPort}. */
    public static ConnectionSpec model(String hostPort, String projectId) {
        return new ConnectionSpec(hostPort, projectId, "", "", null, false, ServerType.MODEL);
    }

    /** One of the Cloud SDK's emulators (legacy or Firestore). */
    public boolean isEmulator() {
        return server.isEmulator();
    }

    /** A server on this machine (an emulator or the model): no credentials, and nothing there needs a confirmation. */
    public boolean isLocal() {
        return server != ServerType.PRODUCTION;
    }

    /** The same connection to a server of type {@code type} (an emulator found to be the Firestore one). */
    public ConnectionSpec withServer(ServerType type) {
        return new ConnectionSpec(emulatorHost, projectId, databaseId, namespace, credentialsFile, readOnly, type);
    }

    public ConnectionSpec withNamespace(String ns) {
        return new ConnectionSpec(emulatorHost, projectId, databaseId, ns, credentialsFile, readOnly, server);
    }

    /** A short, secret-free description for status bars and logs. */
    public String describe() {
        String target = switch (server) {
            case EMULATOR -> "emulator " + emulatorHost + " / " + projectId;
            case FIRESTORE_EMULATOR -> "Firestore emulator " + emulatorHost + " / " + projectId;
            case MODEL -> "production model " + emulatorHost + " / " + projectId;
            case PRODUCTION -> "project " + projectId;
        };
        if (!databaseId.isEmpty()) {
            target += " / database " + databaseId;
        }
        return target + (readOnly ? " (read-only)" : "");
    }
}
