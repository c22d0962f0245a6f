package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.mapper.cel.EntityExpression;
import io.keyranger.mapper.cel.EntityVariables;
import io.keyranger.mapper.cel.ExpressionFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A template's mapper behind a CEL {@code where}: it reads each entity, hands the template only those the
 * expression is true for (so count counts them, delete deletes them), and counts the rest as
 * {@value #FILTERED_OUT}. The job's "read" still counts every key read; {@value #MATCHED} counts those that passed.
 * An entity the expression fails on is skipped with its reason, as in a transform.
 */
final class WhereFilter implements PageMapper {
    static final String MATCHED = "matched by where";
    static final String FILTERED_OUT = "filtered out by where";

    private final PageMapper inner;
    private final EntityExpression where;

    WhereFilter(PageMapper inner, EntityExpression where) {
        this.inner = inner;
        this.where = where;
    }

    @Override
    public MapResult map(Page page) {
        List<Key> keys = new ArrayList<>();
        List<Entity> entities = new ArrayList<>();
        EntitySkips skips = new EntitySkips();
        long filteredOut = 0;
        for (Entity entity : page.entities()) {
            try {
                if (where.test(new EntityVariables(entity))) {
                    keys.add(entity.getKey());
                    entities.add(entity);
                } else {
                    filteredOut++;
                }
            } catch (ExpressionFailure failure) {
                skips.add(entity.getKey(), where.name(), failure);
            }
        }
        MapResult result = keys.isEmpty() ? MapResult.none()
                : inner.map(new Page(keys, inner.needsEntities() ? entities : List.of()));
        Map<String, Long> counters = skips.addCountersTo(new HashMap<>(result.counters()));
        counters.merge(MATCHED, (long) keys.size(), Long::sum);
        counters.merge(FILTERED_OUT, filteredOut, Long::sum);
        List<MapResult.Problem> problems = new ArrayList<>(skips.problems());
        problems.addAll(result.problems());
        return new MapResult(result.puts(), result.deletes(), result.skipped() + skips.count(), counters,
                result.lines(), problems);
    }

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
    public Path outputFile() {
        return inner.outputFile();
    }
}
