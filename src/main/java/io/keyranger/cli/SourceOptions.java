package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --from-…}: another database as the source of {@code diff} (another project, database or namespace). It is on
 * the connected server unless {@code --from-emulator-host} or {@code --from-profile} names another, and reached with
 * the connected credentials unless {@code --from-credentials} or the profile's say otherwise. The connected database
 * is always the one compared with (and, for a restore, the one changed).
 */
final class SourceOptions {
    @Option(names = "--from-project", paramLabel = "ID", description = "The source's project: compare (or restore) "
            + "from another database instead of an export or the past.")
    String project;

    @Option(names = "--from-database", paramLabel = "ID", description = "The source's named database (default: the "
            + "default database).")
    String database;

    @Option(names = "--from-namespace", paramLabel = "NS", description = "The source's namespace (default: the "
            + "default namespace); its entities are placed in the connected one.")
    String namespace;

    @Option(names = "--from-emulator-host", paramLabel = "HOST:PORT", description = "The source's emulator (default: "
            + "the connected server).")
    String emulatorHost;

    @Option(names = "--from-profile", paramLabel = "NAME", description = "A saved connection as the source (its "
            + "project, database, namespace, server and key file; --from-… options given win).")
    String profile;

    @Option(names = "--from-credentials", paramLabel = "FILE", description = "A service-account key file for the "
            + "source (default: the connected one's).")
    Path credentials;

    /** Whether any option names a source database. */
    boolean given() {
        return project != null || database != null || namespace != null || emulatorHost != null || profile != null
                || credentials != null;
    }

    /** The source the options name, an emulator asked which it is; {@code target} fills what they leave out. */
    ConnectionSpec resolve(ConnectionSpec target, ProfileStore profiles) {
        ConnectionProfile saved = profile == null ? null : profiles.require(profile);
        ConnectionSpec base = saved == null ? null : saved.toSpec();
        if (base == null && project == null) {
            throw new KeyRangerException("Say which database to read from: --from-project ID (with --from-database "
                    + "and --from-namespace when not the default ones), or --from-profile NAME.");
        }
        String host = emulatorHost != null ? emulatorHost : base != null ? base.emulatorHost() : target.emulatorHost();
        boolean sameServer = emulatorHost == null && base == null;
        ConnectionSpec source = new ConnectionSpec(host, project != null ? project : base.projectId(),
                database != null ? database : base != null ? base.databaseId() : null,
                namespace != null ? namespace : base != null ? base.namespace() : null,
                credentials != null ? credentials : base != null ? base.credentialsFile() : target.credentialsFile(),
                true, sameServer ? target.server() : null);
        return sameServer ? ConnectionRules.check(source) : DatastoreConnector.identify(ConnectionRules.check(source));
    }
}
