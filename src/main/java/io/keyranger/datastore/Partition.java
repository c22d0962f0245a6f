package io.keyranger.datastore;

import com.google.cloud.datastore.BaseKey;
import java.util.Objects;

/**
 * Where a key lives: a project, a database ("" for the default one) and a namespace ("" for the default one). Two
 * connections that reach the same partition of the same server read and write the same entities.
 *
 * @param project   the project id
 * @param database  the database id, "" for the default database
 * @param namespace the namespace, "" for the default namespace
 */
public record Partition(String project, String database, String namespace) {
    public Partition {
        Objects.requireNonNull(project, "project");
        database = database == null ? "" : database;
        namespace = namespace == null ? "" : namespace;
    }

    /** The partition a connection works in. */
    public static Partition of(ConnectionSpec spec) {
        return new Partition(spec.projectId(), spec.databaseId(), spec.namespace());
    }

    /** The partition {@code key} lives in. */
    public static Partition of(BaseKey key) {
        return new Partition(key.getProjectId(), key.getDatabaseId(), key.getNamespace());
    }

    /** The same project and database, namespace {@code ns}. */
    public Partition inNamespace(String ns) {
        return new Partition(project, database, ns);
    }

    /** Whether {@code key} lives here. */
    public boolean holds(BaseKey key) {
        return equals(of(key));
    }

    /** In words, for messages: "project p", "project p, database d, namespace n". */
    public String describe() {
        return "project " + project + (database.isEmpty() ? "" : ", database " + database)
                + (namespace.isEmpty() ? "" : ", namespace " + namespace);
    }
}
