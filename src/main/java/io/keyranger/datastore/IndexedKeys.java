package io.keyranger.datastore;

import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The keys an entity's properties reach through indexed values only: a key value, an indexed embedded entity's key
 * (complete or not), and the same inside indexed embedded entities and lists. These are the keys Google's
 * {@code :import} moves into the project imported into, and those KeyRanger places in another database
 * ({@link ImportPlacement}, {@link DatabasePlacement}); a key under an unindexed value is kept as it is, and so is
 * every other value, meanings and index flags included.
 */
final class IndexedKeys {
    private IndexedKeys() {
    }

    /** {@code entity}'s properties with every key reached through indexed values mapped by {@code move}. */
    static FullEntity<IncompleteKey> properties(FullEntity<?> entity, UnaryOperator<IncompleteKey> move) {
        return properties(entity, null, move);
    }

    private static FullEntity<IncompleteKey> properties(FullEntity<?> entity, IncompleteKey key,
                                                        UnaryOperator<IncompleteKey> move) {
        FullEntity.Builder<IncompleteKey> b = key == null ? FullEntity.newBuilder() : FullEntity.newBuilder(key);
        for (String name : entity.getNames()) {
            b.set(name, value(entity.getValue(name), move));
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private static Value<?> value(Value<?> value, UnaryOperator<IncompleteKey> move) {
        if (value.excludeFromIndexes()) {
            return value;
        }
        return switch (value.getType()) {
            case KEY -> ((KeyValue) value).toBuilder().set((Key) move.apply((Key) value.get())).build();
            case ENTITY -> {
                FullEntity<?> inner = (FullEntity<?>) value.get();
                IncompleteKey key = inner.getKey() == null ? null : move.apply(inner.getKey());
                yield ((EntityValue) value).toBuilder().set(properties(inner, key, move)).build();
            }
            case LIST -> {
                List<Value<?>> items = new ArrayList<>();
                for (Value<?> item : (List<? extends Value<?>>) value.get()) {
                    items.add(value(item, move));
                }
                yield ((ListValue) value).toBuilder().set(items).build();
            }
            default -> value;
        };
    }
}
