package io.keyranger.datastore;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;

/**
 * Where the entities of one database partition go when they are compared with, or written into, another: an entity's
 * key, and every key reached through indexed values only (a key value, an indexed embedded entity's key, and the same
 * inside indexed embedded entities) that lives in the source's partition, is placed in the target's, keeping its path.
 * A key under an unindexed value, and a key into any other partition, is kept as it is: the rule Google's
 * {@code :import} follows for the project ({@link ImportPlacement}), applied to the whole partition
 * ({@link IndexedKeys}). Every other value, meanings and index flags included, is kept.
 *
 * @param from the partition the entities are read from
 * @param to   the partition they are compared with or written into
 */
public record DatabasePlacement(Partition from, Partition to) {
    /** The entities of {@code source}'s partition as placed in {@code target}'s database and {@code namespace}. */
    public static DatabasePlacement of(ConnectionSpec source, ConnectionSpec target, String namespace) {
        return new DatabasePlacement(Partition.of(source), Partition.of(target).inNamespace(namespace));
    }

    /** Entities that stay where they are: the past of the connected database. */
    public static DatabasePlacement none(Partition partition) {
        return new DatabasePlacement(partition, partition);
    }

    /** Whether entities keep their keys. */
    public boolean moves() {
        return !from.equals(to);
    }

    /** {@code entity} as it is placed in the target's partition. */
    public Entity place(Entity entity) {
        if (!moves()) {
            return entity;
        }
        return Entity.newBuilder(target(entity.getKey()), IndexedKeys.properties(entity, this::placed)).build();
    }

    /** The target's key of the source's {@code key} (a key of another partition is kept). */
    public Key target(Key key) {
        return from.holds(key) ? moved(key, to) : key;
    }

    /** The source's key of the target's {@code key} (a key of another partition is kept). */
    public Key source(Key key) {
        return to.holds(key) ? moved(key, from) : key;
    }

    private IncompleteKey placed(IncompleteKey key) {
        if (key instanceof Key complete) {
            return target(complete);
        }
        return from.holds(key) ? IncompleteKey.newBuilder(key).setProjectId(to.project()).setDatabaseId(to.database())
                .setNamespace(to.namespace()).build() : key;
    }

    private static Key moved(Key key, Partition to) {
        return Key.newBuilder(key).setProjectId(to.project()).setDatabaseId(to.database())
                .setNamespace(to.namespace()).build();
    }
}
