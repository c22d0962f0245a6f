package io.keyranger.model;

import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.Value;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The built-in index of one property of a kind, as production answers an equality filter from: for each value, the
 * keys of the entities that hold it, in key order, so that a query finds its matches without reading the entities
 * that do not match (production's time does not grow with them). It lists every key that held the value in any
 * version the model keeps, since a read of the past needs those, and drops none: a query still checks every entity it
 * reads against its filters, so an entry whose entity holds another value now costs a read, never a wrong answer.
 * Values of the types KeyRanger filters on are indexed (integers and timestamps, booleans, strings, blobs, doubles,
 * null); a filter on another type reads the kind.
 */
final class PropertyIndex {
    /** The index value of null, which no Java value of the others equals. */
    private static final Object NULL = new Object();

    private final String property;
    private final Comparator<? super Key> order;
    private final ConcurrentHashMap<Object, ConcurrentSkipListMap<Key, Boolean>> byValue = new ConcurrentHashMap<>();

    PropertyIndex(String property, Comparator<? super Key> order) {
        this.property = property;
        this.order = order;
    }

    /**
     * What a value is indexed under, equal exactly when {@link ModelValues#compare} finds two values equal; null for
     * a type this index leaves out.
     */
    static Object indexValue(Value v) {
        return switch (v.getValueTypeCase()) {
            case NULL_VALUE -> NULL;
            case INTEGER_VALUE, TIMESTAMP_VALUE -> ModelValues.asLong(v);
            case BOOLEAN_VALUE -> v.getBooleanValue();
            case STRING_VALUE -> v.getStringValue();
            case BLOB_VALUE -> v.getBlobValue();
            case DOUBLE_VALUE -> v.getDoubleValue();
            default -> null;
        };
    }

    /** Lists {@code entity} under each value of the property it holds indexed (every element of an array). */
    void add(Entity entity) {
        Value value = entity.getPropertiesMap().get(property);
        if (value == null || value.getExcludeFromIndexes()) {
            return;
        }
        for (Value v : value.hasArrayValue() ? value.getArrayValue().getValuesList() : List.of(value)) {
            Object indexed = indexValue(v);
            if (indexed != null) {
                byValue.computeIfAbsent(indexed, ignored -> new ConcurrentSkipListMap<>(order))
                        .put(entity.getKey(), Boolean.TRUE);
            }
        }
    }

    /** The keys listed under {@code wanted} (an indexed type), in key order: a live view. */
    NavigableMap<Key, Boolean> keys(Value wanted) {
        NavigableMap<Key, Boolean> keys = byValue.get(indexValue(wanted));
        return keys != null ? keys : new ConcurrentSkipListMap<>(order);
    }
}
