package io.keyranger.datastore;

import java.util.List;
import java.util.ArrayList;
import com.google.cloud.datastore.PathElement;
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
 * With a kind renamed ({@link #renaming}), every path element of that kind in a key placed (the entity's own, its
 * ancestors', and those of the key values placed) takes the new kind, so that references among them still hold.
 *
 * @param from     the partition the entities are read from
 * @param to       the partition they are compared with or written into
 * @param fromKind the kind renamed, or null
 * @param toKind   its name in the target, or null
 */
public record DatabasePlacement(Partition from, Partition to, String fromKind, String toKind) {
    /** A placement that renames no kind. */
    public DatabasePlacement(Partition from, Partition to) {
        this(from, to, null, null);
    }

    /** The entities of {@code source}'s partition as placed in {@code target}'s database and {@code namespace}. */
    public static DatabasePlacement of(ConnectionSpec source, ConnectionSpec target, String namespace) {
        return new DatabasePlacement(Partition.of(source), Partition.of(target).inNamespace(namespace));
    }

    /** Entities that stay where they are: the past of the connected database. */
    public static DatabasePlacement none(Partition partition) {
        return new DatabasePlacement(partition, partition);
    }

    /** This placement, with {@code kind} named {@code as} in the target (null: none renamed). */
    public DatabasePlacement renaming(String kind, String as) {
        return as == null || as.equals(kind) ? new DatabasePlacement(from, to) : new DatabasePlacement(from, to, kind,
                as);
    }

    /** This placement renaming no kind: where the source's keys go, paths kept. */
    public DatabasePlacement keepingKinds() {
        return new DatabasePlacement(from, to);
    }

    /** Whether entities keep their keys. */
    public boolean moves() {
        return !from.equals(to) || toKind != null;
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
        return from.holds(key) ? moved(key, to, fromKind, toKind) : key;
    }

    /** The source's key of the target's {@code key} (a key of another partition is kept). */
    public Key source(Key key) {
        return to.holds(key) ? moved(key, from, toKind, fromKind) : key;
    }

    private IncompleteKey placed(IncompleteKey key) {
        if (key instanceof Key complete) {
            return target(complete);
        }
        if (!from.holds(key)) {
            return key;
        }
        List<PathElement> ancestors = renamed(key.getAncestors(), fromKind, toKind);
        String kind = key.getKind().equals(fromKind) ? toKind : key.getKind();
        return IncompleteKey.newBuilder(to.project(), kind).setDatabaseId(to.database()).setNamespace(to.namespace())
                .addAncestors(ancestors).build();
    }

    private static Key moved(Key key, Partition to, String kind, String as) {
        if (as == null) {
            return Key.newBuilder(key).setProjectId(to.project()).setDatabaseId(to.database())
                    .setNamespace(to.namespace()).build();
        }
        Key.Builder moved = Key.newBuilder(to.project(), key.getKind().equals(kind) ? as : key.getKind(), "x",
                to.database()).setNamespace(to.namespace()).addAncestors(renamed(key.getAncestors(), kind, as));
        return key.hasId() ? moved.setId(key.getId()).build() : moved.setName(key.getName()).build();
    }

    private static List<PathElement> renamed(List<PathElement> path, String kind, String as) {
        if (as == null) {
            return path;
        }
        List<PathElement> out = new ArrayList<>(path.size());
        for (PathElement e : path) {
            String k = e.getKind().equals(kind) ? as : e.getKind();
            out.add(e.hasId() ? PathElement.of(k, e.getId()) : PathElement.of(k, e.getName()));
        }
        return out;
    }
}
