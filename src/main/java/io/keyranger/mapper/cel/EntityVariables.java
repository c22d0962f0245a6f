package io.keyranger.mapper.cel;

import com.google.cloud.datastore.Entity;
import dev.cel.runtime.CelVariableResolver;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What expressions see of one entity: each property by its name, {@code props} (every property, by name, for names
 * that are not identifiers) and {@code key}. Values convert once per entity, however many expressions read them.
 * Remembers the first property an expression asked for and the entity lacks, to say which one was missing.
 */
public final class EntityVariables implements CelVariableResolver {
    /** The variable holding every property by name. */
    public static final String PROPS = "props";
    /** The variable holding the entity's key. */
    public static final String KEY = "key";

    private final Entity entity;
    private final Map<String, Object> converted = new HashMap<>();
    private String missing;

    public EntityVariables(Entity entity) {
        this.entity = entity;
    }

    public Entity entity() {
        return entity;
    }

    @Override
    public Optional<Object> find(String name) {
        Object value = converted.get(name);
        if (value == null) {
            value = convert(name);
            if (value == null) {
                if (missing == null) {
                    missing = name;
                }
                return Optional.empty();
            }
            converted.put(name, value);
        }
        return Optional.of(value);
    }

    private Object convert(String name) {
        if (name.equals(PROPS)) {
            return CelValues.entityMap(entity, null);
        }
        if (name.equals(KEY)) {
            return CelValues.keyMap(entity.getKey());
        }
        return entity.contains(name) ? CelValues.toCel(entity.getValue(name)) : null;
    }

    /** Forgets which property was missing, before the next expression runs. */
    void clearMissing() {
        missing = null;
    }

    /** The first property asked for that the entity lacks since {@link #clearMissing()}, or null. */
    String missing() {
        return missing;
    }
}
