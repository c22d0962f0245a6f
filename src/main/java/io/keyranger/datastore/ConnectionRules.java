package io.keyranger.datastore;

import io.keyranger.KeyRangerException;
import java.nio.charset.StandardCharsets;

/**
 * Datastore's rules for what a user types to name a connection and its data, checked before anything is sent:
 * each refusal names the value and the rule, so that no typo ends in an "unexpected error" from deep in a client.
 */
public final class ConnectionRules {
    private ConnectionRules() {
    }

    /** Checks every value of a connection; a {@link KeyRangerException} names the first one that breaks a rule. */
    public static ConnectionSpec check(ConnectionSpec spec) {
        if (spec.emulatorHost() != null) {
            hostPort(spec.emulatorHost());
            emulatorProject(spec.projectId());
        } else {
            project(spec.projectId());
        }
        database(spec.databaseId());
        namespace(spec.namespace());
        return spec;
    }

    /** HOST:PORT with a port from 1 to 65535 (IPv6 hosts in brackets, [::1]:8081). */
    public static void hostPort(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? "" : hostPort.substring(0, colon);
        String port = colon < 0 ? "" : hostPort.substring(colon + 1);
        if (colon < 0 || host.isBlank() || !port.matches("\\d{1,5}")) {
            throw new KeyRangerException("Emulator host '" + hostPort + "' is not HOST:PORT, e.g. 127.0.0.1:8081.");
        }
        int number = Integer.parseInt(port);
        if (number < 1 || number > 65535) {
            throw new KeyRangerException("Port " + port + " of '" + hostPort + "' is out of range: a port is 1 to "
                    + "65535.");
        }
        if (!host.matches("\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+")) {
            throw new KeyRangerException("Host '" + host + "' of '" + hostPort + "' is not a host name or an IP "
                    + "address.");
        }
    }

    /**
     * A Google Cloud project id: 6 to 30 characters, lowercase letters, digits and hyphens, starting with a letter and
     * not ending with a hyphen (older ids may also hold a domain, "example.com:my-project").
     */
    public static void project(String projectId) {
        String id = projectId.contains(":") ? projectId.substring(projectId.lastIndexOf(':') + 1) : projectId;
        if (!id.matches("[a-z][a-z0-9-]{4,28}[a-z0-9]")) {
            throw new KeyRangerException("Project id '" + projectId + "' breaks Google Cloud's rule: 6 to 30 "
                    + "lowercase letters, digits or hyphens, starting with a letter and not ending with a hyphen.");
        }
    }

    /** An emulator takes any id the REST path can carry: letters, digits, '-', '_', '.' and ':'. */
    public static void emulatorProject(String projectId) {
        if (!projectId.matches("[A-Za-z0-9._:-]{1,100}")) {
            throw new KeyRangerException("Project id '" + projectId + "' cannot be used: write letters, digits, "
                    + "'-', '_', '.' or ':' only (an emulator takes any such id, e.g. demo-project).");
        }
    }

    /** A named database: 4 to 63 lowercase letters, digits or hyphens, starting with a letter; "" is the default. */
    public static void database(String databaseId) {
        if (databaseId == null || databaseId.isEmpty() || databaseId.equals("(default)")) {
            return;
        }
        if (!databaseId.matches("[a-z][a-z0-9-]{2,61}[a-z0-9]")) {
            throw new KeyRangerException("Database id '" + databaseId + "' breaks Firestore's rule: 4 to 63 "
                    + "lowercase letters, digits or hyphens, starting with a letter and not ending with a hyphen.");
        }
    }

    /** A namespace: up to 100 letters, digits, '.', '-' or '_'; not __reserved__; "" is the default one. */
    public static void namespace(String namespace) {
        if (namespace == null || namespace.isEmpty()) {
            return;
        }
        if (!namespace.matches("[0-9A-Za-z._-]{1,100}")) {
            throw new KeyRangerException("Namespace '" + namespace + "' breaks Datastore's rule: up to 100 letters, "
                    + "digits, '.', '-' or '_'.");
        }
        if (namespace.matches("__.*__")) {
            throw new KeyRangerException("Namespace '" + namespace + "' is reserved by Datastore (names like __x__).");
        }
    }

    /** A kind: not empty, at most 1,500 bytes, not __reserved__. */
    public static void kind(String kind) {
        if (kind == null || kind.isEmpty()) {
            throw new KeyRangerException("A kind name cannot be empty.");
        }
        if (kind.getBytes(StandardCharsets.UTF_8).length > 1_500) {
            throw new KeyRangerException("Kind '" + kind.substring(0, 20) + "…' is longer than Datastore's 1,500 bytes.");
        }
        if (kind.matches("__.*__")) {
            throw new KeyRangerException("Kind '" + kind + "' is reserved by Datastore (names like __x__).");
        }
    }
}
