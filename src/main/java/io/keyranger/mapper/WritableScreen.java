package io.keyranger.mapper;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import io.keyranger.datastore.EntitySize;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps out of a page's commit the entities Datastore would refuse (over 1 MiB, or an indexed string or blob over
 * 1,500 bytes): one such entity would fail the whole commit and so its range. Each is skipped with its reason, counted
 * under {@code skipped: REASON}, and the rest of the page commits.
 */
final class WritableScreen extends DelegatingMapper {
    /** Datastore's limit on an indexed string or blob value, in bytes. */
    static final int MAX_INDEXED_BYTES = 1_500;
    /** The reasons it gives, the categories of what it leaves out. */
    static final String OVER_ENTITY_LIMIT = "over 1 MiB";
    static final String INDEXED_TOO_LONG = "indexed value over 1,500 bytes";

    private final boolean keepsUndo;

    WritableScreen(PageMapper inner, boolean keepsUndo) {
        super(inner);
        this.keepsUndo = keepsUndo;
    }

    @Override
    public boolean keepsUndo() {
        return keepsUndo;
    }

    @Override
    public MapResult map(Page page) {
        MapResult result = inner.map(page);
        if (result.puts().isEmpty()) {
            return result;
        }
        List<Entity> puts = new ArrayList<>(result.puts().size());
        EntitySkips skips = new EntitySkips();
        for (Entity entity : result.puts()) {
            String problem = problem(entity);
            if (problem == null) {
                puts.add(entity);
            } else {
                skips.add(entity.getKey(), problem.substring(0, problem.indexOf(':')), problem);
            }
        }
        if (skips.count() == 0) {
            return result;
        }
        Map<String, Long> counters = skips.addCountersTo(new HashMap<>(result.counters()));
        List<MapResult.Problem> problems = new ArrayList<>(result.problems());
        problems.addAll(skips.problems());
        return new MapResult(puts, result.deletes(), result.skipped() + skips.count(), counters, result.lines(),
                problems);
    }

    /** Why Datastore would refuse to store the entity ("category: detail"), or null. */
    static String problem(Entity entity) {
        int size = EntitySize.bytes(entity);
        if (size > EntitySize.MAX_BYTES) {
            return OVER_ENTITY_LIMIT + ": it would be " + size + " bytes, over Datastore's limit of "
                    + EntitySize.MAX_BYTES;
        }
        return indexedTooLong(entity, "");
    }

    private static String indexedTooLong(FullEntity<?> entity, String prefix) {
        for (String name : entity.getNames()) {
            String problem = indexedTooLong(entity.getValue(name), prefix + name);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String indexedTooLong(Value<?> value, String path) {
        if (value instanceof ListValue list) {
            for (Value<?> item : list.get()) {
                String problem = indexedTooLong(item, path);
                if (problem != null) {
                    return problem;
                }
            }
            return null;
        }
        if (value instanceof EntityValue embedded && !value.excludeFromIndexes()) {
            return indexedTooLong(embedded.get(), path + ".");
        }
        if (value.excludeFromIndexes()) {
            return null;
        }
        int bytes = value.getType() == ValueType.STRING ? ((String) value.get()).getBytes(StandardCharsets.UTF_8).length
                : value.getType() == ValueType.BLOB ? ((Blob) value.get()).getLength() : 0;
        return bytes > MAX_INDEXED_BYTES ? INDEXED_TOO_LONG + ": '" + path + "' is " + bytes
                + " bytes and indexed (write it unindexed)" : null;
    }
}
