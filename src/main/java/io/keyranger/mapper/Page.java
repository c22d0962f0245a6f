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
 * @param related  the keys the mapper asked for ({@link PageMapper#related}), read in the same transaction: each with
 *                 its entity, or absent when it does not exist
 * @param records  for a mapper that reads a source ({@link PageMapper#readsSource}), what the source holds at each
 *                 of the page's keys (positions in it); empty otherwise
 */
public record Page(List<Key> keys, List<Entity> entities, java.util.Map<Key, Entity> related,
                   java.util.Map<Key, SourceRecord> records) {
    public Page {
        keys = List.copyOf(keys);
        entities = List.copyOf(entities);
        related = java.util.Map.copyOf(related);
        records = java.util.Map.copyOf(records);
    }

    public Page(List<Key> keys, List<Entity> entities, java.util.Map<Key, Entity> related) {
        this(keys, entities, related, java.util.Map.of());
    }

    public Page(List<Key> keys, List<Entity> entities) {
        this(keys, entities, java.util.Map.of());
    }
}
