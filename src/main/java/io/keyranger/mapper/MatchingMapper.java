package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Hands a mapper only the entities of each page that meet the conditions the server could not apply (those of a GQL
 * query that cannot sit beside a key range). It reads every page's entities to decide, and counts the others under
 * {@link #NOT_MATCHING}, so the job's totals say how many were read but left alone.
 */
record MatchingMapper(PageMapper inner, Predicate<Entity> keep) implements PageMapper {
    /** The counter of entities read but not matching the query. */
    static final String NOT_MATCHING = "not matching the query";

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public boolean needsEntities() {
        return true;
    }

    @Override
    public boolean writes() {
        return inner.writes();
    }

    @Override
    public int entityGroupsPerKey() {
        return inner.entityGroupsPerKey();
    }

    @Override
    public java.nio.file.Path outputFile() {
        return inner.outputFile();
    }

    @Override
    public MapResult map(Page page) {
        List<Entity> kept = page.entities().stream().filter(keep).toList();
        List<Key> keys = kept.stream().map(Entity::getKey).toList();
        MapResult result = inner.map(new Page(keys, kept));
        long left = page.entities().size() - kept.size();
        if (left == 0) {
            return result;
        }
        Map<String, Long> counters = new HashMap<>(result.counters());
        counters.merge(NOT_MATCHING, left, Long::sum);
        return new MapResult(result.puts(), result.deletes(), result.skipped(), counters, result.lines());
    }
}
