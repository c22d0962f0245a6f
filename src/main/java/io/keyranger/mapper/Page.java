package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.List;

/**
 * A chunk of a range's page handed to a mapper.
 *
 * @param keys     the keys, in key order
 * @param entities the entities of those keys that still exist, read in the commit's transaction; empty for
 *                 key-only mappers
 */
public record Page(List<Key> keys, List<Entity> entities) {
    public Page {
        keys = List.copyOf(keys);
        entities = List.copyOf(entities);
    }
}
