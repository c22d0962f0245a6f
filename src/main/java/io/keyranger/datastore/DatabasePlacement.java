package io.keyranger.datastore;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the entities of one database partition go when they are compared with, or written into, another: an entity's
 * key, and every key reached through indexed values only (a key value, an indexed embedded entity's key, and the same
 * inside indexed embedded entities) that lives in the source's partition, is placed in the target's, keeping its path.
 * A key under an unindexed value, and a key into any other partition, is kept as it is: the rule Google's
 * {@code :import} follows for the project ({@link ImportPlacement}), applied to the whole partition. Every other value,
 * meanings and index flags included, is kept.
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
        return Entity.newBuilder(target(entity.getKey()), properties(entity, null)).build();
    }

    /** The target's key of the source's {@code key} (a key of another partition is kept). */
    public Key target(Key key) {
        return from.holds(key) ? moved(key, to) : key;
    }

    /** The source's key of the target's {@code key} (a key of another partition is kept). */
    public Key source(Key key) {
        return to.holds(key) ? moved(key, from) : key;
    }

    private FullEntity<IncompleteKey> properties(FullEntity<?> entity, IncompleteKey key) {
        FullEntity.Builder<IncompleteKey> b = key == null ? FullEntity.newBuilder() : FullEntity.newBuilder(key);
        for (String name : entity.getNames()) {
            b.set(name, value(entity.getValue(name)));
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private Value<?> value(Value<?> value) {
        if (value.excludeFromIndexes()) {
            return value;
        }
        return switch (value.getType()) {
            case KEY -> ((KeyValue) value).toBuilder().set(target((Key) value.get())).build();
            case ENTITY -> {
                FullEntity<?> inner = (FullEntity<?>) value.get();
                IncompleteKey key = inner.getKey() == null ? null : placed(inner.getKey());
                yield ((EntityValue) value).toBuilder().set(properties(inner, key)).build();
            }
            case LIST -> {
                List<Value<?>> items = new ArrayList<>();
                for (Value<?> item : (List<? extends Value<?>>) value.get()) {
                    items.add(value(item));
                }
                yield ((ListValue) value).toBuilder().set(items).build();
            }
            default -> value;
        };
    }

    private IncompleteKey placed(IncompleteKey key) {
        if (key instanceof Key complete) {
            return target(complete);
        }
        return from.holds(key) ? moved(key, to) : key;
    }

    private static Key moved(Key key, Partition to) {
        return Key.newBuilder(key).setProjectId(to.project()).setDatabaseId(to.database())
                .setNamespace(to.namespace()).build();
    }

    private static IncompleteKey moved(IncompleteKey key, Partition to) {
        return IncompleteKey.newBuilder(key).setProjectId(to.project()).setDatabaseId(to.database())
                .setNamespace(to.namespace()).build();
    }
}
