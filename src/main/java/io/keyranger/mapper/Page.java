package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.List;
import java.util.Map;

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
public record Page(List<Key> keys, List<Entity> entities, Map<Key, Entity> related,
                   Map<Key, SourceRecord> records) {
    public Page {
        keys = List.copyOf(keys);
        entities = List.copyOf(entities);
        related = Map.copyOf(related);
        records = Map.copyOf(records);
    }

    public Page(List<Key> keys, List<Entity> entities, Map<Key, Entity> related) {
        this(keys, entities, related, Map.of());
    }

    public Page(List<Key> keys, List<Entity> entities) {
        this(keys, entities, Map.of());
    }
}
