package io.keyranger.cli;

import io.keyranger.datastore.ConnectionRules;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The connection options every command that talks to Datastore shares. Explicit options win over a saved profile;
 * without a profile, the emulator variables DATASTORE_EMULATOR_HOST and DATASTORE_PROJECT_ID fill the gaps.
 */
public final class ConnectionOptions {
    @Option(names = "--emulator-host", paramLabel = "HOST:PORT",
            description = "A Datastore emulator (default: $DATASTORE_EMULATOR_HOST).")
    String emulatorHost;

    @Option(names = "--model-host", paramLabel = "HOST:PORT",
            description = "A KeyRanger production model server (keyranger model-server; benchmarks only): local, "
                    + "but keys sort and commits are limited as in production.")
    String modelHost;

    @Option(names = "--project", paramLabel = "ID",
            description = "The project id (with an emulator: $DATASTORE_PROJECT_ID or demo-project).")
    String project;

    @Option(names = "--database", paramLabel = "ID", description = "A named database (default: the default database).")
    String database;

    @Option(names = "--namespace", paramLabel = "NS", description = "The namespace (default: the default namespace).")
    String namespace;

    @Option(names = "--credentials", paramLabel = "FILE",
            description = "A service-account key file (default: Application Default Credentials).")
    Path credentials;

    @Option(names = "--profile", paramLabel = "NAME", description = "A saved connection.")
    String profile;

    /** Whether any option names a connection; without one the GUI asks. */
    public boolean isGiven(Map<String, String> env) {
        return emulatorHost != null || modelHost != null || project != null || profile != null || notBlank(env.get("DATASTORE_EMULATOR_HOST"));
    }

    public String namespaceOrNull() {
        return namespace;
    }

    /** The connection the options name, an emulator host asked which emulator it is. */
    public ConnectionSpec resolve(ProfileStore profiles, Map<String, String> env) {
        return DatastoreConnector.identify(named(profiles, env));
    }

    /**
     * The connection the options name, without calling it: an emulator host is taken as the legacy emulator until
     * {@link DatastoreConnector#identify} asks it (the window does when it connects, off its FX thread).
     */
    public ConnectionSpec named(ProfileStore profiles, Map<String, String> env) {
        if (modelHost != null) {
            if (emulatorHost != null || profile != null) {
                throw new KeyRangerException("--model-host names the whole connection: leave out --emulator-host and "
                        + "--profile.");
            }
            return ConnectionRules.check(new ConnectionSpec(modelHost, first(project,
                    ConnectionSpec.DEFAULT_EMULATOR_PROJECT), database, namespace, null, false, ServerType.MODEL));
        }
        ConnectionProfile saved = profile == null ? null : profiles.require(profile);
        ConnectionSpec base = saved == null ? null : saved.toSpec();
        String host = first(emulatorHost, base != null ? base.emulatorHost() : env.get("DATASTORE_EMULATOR_HOST"));
        String projectId;
        if (notBlank(host)) {
            projectId = first(project, base != null ? base.projectId() : null, env.get("DATASTORE_PROJECT_ID"),
                    ConnectionSpec.DEFAULT_EMULATOR_PROJECT);
        } else {
            projectId = first(project, base != null ? base.projectId() : null, env.get("GOOGLE_CLOUD_PROJECT"));
            if (projectId == null) {
                throw new KeyRangerException("No connection given: use --emulator-host HOST:PORT, --project ID or "
                        + "--profile NAME (or set DATASTORE_EMULATOR_HOST).");
            }
        }
        return ConnectionRules.check(new ConnectionSpec(notBlank(host) ? host : null, projectId,
                first(database, base != null ? base.databaseId() : null),
                first(namespace, base != null ? base.namespace() : null),
                credentials != null ? credentials : base != null ? base.credentialsFile() : null,
                base != null && base.readOnly()));
    }

    private static String first(String... values) {
        for (String value : values) {
            if (notBlank(value)) {
                return value;
            }
        }
        return null;
    }

    private static boolean notBlank(String value) {
        return value != null && !value.isBlank();
    }
}
