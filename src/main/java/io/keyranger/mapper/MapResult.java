package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.List;
import java.util.Map;

/**
 * What a mapper wants done with a page.
 *
 * @param puts     entities to upsert
 * @param deletes  keys to delete
 * @param skipped  entities it left alone (for example, of the wrong type)
 * @param counters increments of the mapper's own counters, by name
 * @param lines    lines for the mapper's output file (export), written exactly once with the checkpoint
 */
public record MapResult(List<Entity> puts, List<Key> deletes, long skipped, Map<String, Long> counters,
                        List<String> lines) {
    public MapResult {
        puts = List.copyOf(puts);
        deletes = List.copyOf(deletes);
        counters = Map.copyOf(counters);
        lines = List.copyOf(lines);
    }

    public MapResult(List<Entity> puts, List<Key> deletes, long skipped, Map<String, Long> counters) {
        this(puts, deletes, skipped, counters, List.of());
    }

    public static MapResult none() {
        return new MapResult(List.of(), List.of(), 0, Map.of());
    }
}
