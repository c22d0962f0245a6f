package io.keyranger.mapper.cel;

import com.google.cloud.datastore.Value;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * A read-only map that an expression sees for a key, an embedded entity or a geo point, remembering the Datastore
 * value it came from: when an expression returns it unchanged, the original value (a key stays a key) is written.
 */
final class ValueMap extends AbstractMap<String, Object> {
    private final Map<String, Object> fields;
    private final Value<?> original;

    ValueMap(Map<String, Object> fields, Value<?> original) {
        this.fields = fields;
        this.original = original;
    }

    Value<?> original() {
        return original;
    }

    @Override
    public Object get(Object key) {
        return fields.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return fields.containsKey(key);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return fields.entrySet();
    }
}
