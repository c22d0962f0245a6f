package io.keyranger.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.keyranger.datastore.ConnectionSpec;
import java.nio.file.Path;

/**
 * A saved connection as stored in profiles.json. It holds no secret: only the path of a key file.
 *
 * @param name            what the user calls it
 * @param emulatorHost    host:port of an emulator, or null for a real project
 * @param projectId       the project id
 * @param databaseId      a named database, or null for the default one
 * @param credentialsFile the path of a service-account key file, or null for Application Default Credentials
 * @param namespace       the namespace to open, or null for the default one
 * @param readOnly        refuse writing jobs on this connection
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConnectionProfile(String name, String emulatorHost, String projectId, String databaseId,
                                String credentialsFile, String namespace, boolean readOnly) {

    /**
     * The connection this profile names, without calling it: an emulator host is taken as the legacy emulator until
     * {@link io.keyranger.datastore.DatastoreConnector#identify} asks it which it is, as every connect does.
     */
    public ConnectionSpec toSpec() {
        String project = projectId == null || projectId.isBlank() ? ConnectionSpec.DEFAULT_EMULATOR_PROJECT : projectId;
        return new ConnectionSpec(emulatorHost, project, databaseId, namespace,
                credentialsFile == null || credentialsFile.isBlank() ? null : Path.of(credentialsFile), readOnly);
    }
}
