package io.keyranger.datastore;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;

/**
 * Where Google's {@code :import} puts the keys inside an exported entity, measured on the emulator: every key reached
 * through indexed values only (a key value, an indexed embedded entity's key, complete or not, and the same inside
 * indexed embedded entities) is moved into the project imported into, keeping its namespace and database; a key under
 * an unindexed value keeps the project the export holds. It does so even when importing into the exported project, so
 * a key value pointing into another project comes back pointing into the connected one. A restore writes what the
 * import would; an entity that is as in the export, or as a restore of it writes it, is the same as its backup.
 */
public final class ImportPlacement {
    private ImportPlacement() {
    }

    /** {@code exported} as Google's import writes it into {@code project}. */
    public static Entity place(Entity exported, String project) {
        return Entity.newBuilder(exported.getKey(), IndexedKeys.properties(exported, key -> moved(key, project)))
                .build();
    }

    private static IncompleteKey moved(IncompleteKey key, String project) {
        return key instanceof Key complete ? Key.newBuilder(complete).setProjectId(project).build()
                : IncompleteKey.newBuilder(key).setProjectId(project).build();
    }
}
