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
        return Entity.newBuilder(exported.getKey(), properties(exported, exported.getKey(), project)).build();
    }

    private static FullEntity<IncompleteKey> properties(FullEntity<?> entity, IncompleteKey key, String project) {
        FullEntity.Builder<IncompleteKey> b = key == null ? FullEntity.newBuilder() : FullEntity.newBuilder(key);
        for (String name : entity.getNames()) {
            b.set(name, value(entity.getValue(name), project));
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private static Value<?> value(Value<?> value, String project) {
        if (value.excludeFromIndexes()) {
            return value;
        }
        return switch (value.getType()) {
            case KEY -> ((KeyValue) value).toBuilder().set(moved((Key) value.get(), project)).build();
            case ENTITY -> {
                FullEntity<?> inner = (FullEntity<?>) value.get();
                IncompleteKey key = inner.getKey() == null ? null : moved(inner.getKey(), project);
                yield ((EntityValue) value).toBuilder().set(properties(inner, key, project)).build();
            }
            case LIST -> {
                List<Value<?>> items = new ArrayList<>();
                for (Value<?> item : (List<? extends Value<?>>) value.get()) {
                    items.add(value(item, project));
                }
                yield ((ListValue) value).toBuilder().set(items).build();
            }
            default -> value;
        };
    }

    private static Key moved(Key key, String project) {
        return Key.newBuilder(key).setProjectId(project).build();
    }

    private static IncompleteKey moved(IncompleteKey key, String project) {
        return key instanceof Key complete ? moved(complete, project)
                : IncompleteKey.newBuilder(key).setProjectId(project).build();
    }
}
