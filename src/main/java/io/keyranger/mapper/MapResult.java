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
 * @param problems skipped entities that deserve a reason (an expression failed on them), with the reason
 */
public record MapResult(List<Entity> puts, List<Key> deletes, long skipped, Map<String, Long> counters,
                        List<String> lines, List<Problem> problems) {
    /**
     * Why one entity was skipped.
     *
     * @param key      the entity
     * @param reason   what went wrong, e.g. "set.balance: long overflow"
     * @param category the reason's kind, as its counter names it ({@code skipped: CATEGORY}), e.g. "overflow in
     *                 set.balance"
     */
    public record Problem(Key key, String reason, String category) {
        public Problem(Key key, String reason) {
            this(key, reason, "other");
        }
    }

    public MapResult {
        puts = List.copyOf(puts);
        deletes = List.copyOf(deletes);
        counters = Map.copyOf(counters);
        lines = List.copyOf(lines);
        problems = List.copyOf(problems);
    }

    public MapResult(List<Entity> puts, List<Key> deletes, long skipped, Map<String, Long> counters,
                     List<String> lines) {
        this(puts, deletes, skipped, counters, lines, List.of());
    }

    public MapResult(List<Entity> puts, List<Key> deletes, long skipped, Map<String, Long> counters) {
        this(puts, deletes, skipped, counters, List.of(), List.of());
    }

    public static MapResult none() {
        return new MapResult(List.of(), List.of(), 0, Map.of());
    }
}
