package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.mapper.cel.EntityExpression;
import io.keyranger.mapper.cel.EntityVariables;
import io.keyranger.mapper.cel.ExpressionFailure;
import io.keyranger.query.JobQuery;
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
final class WhereFilter extends DelegatingMapper {
    static final String MATCHED = "matched by where";
    static final String FILTERED_OUT = "filtered out by where";
    /** The counter of entities a GQL job read but left alone: they miss a condition applied on the client. */
    static final String NOT_MATCHING = "not matching the query";
    /** The counter of entities a GQL job read that meet its conditions applied on the client. */
    static final String MATCHING = "matching the query";

    /** A condition on one entity; an entity it cannot decide is skipped with the failure's reason. */
    interface Condition {
        boolean test(Entity entity) throws ExpressionFailure;
    }

    private final String name;
    private final Condition condition;
    private final String matched;
    private final String filteredOut;

    private WhereFilter(PageMapper inner, String name, Condition condition, String matched, String filteredOut) {
        super(inner);
        this.name = name;
        this.condition = condition;
        this.matched = matched;
        this.filteredOut = filteredOut;
    }

    /** Behind a CEL where expression. */
    WhereFilter(PageMapper inner, EntityExpression where) {
        this(inner, where.name(), entity -> where.test(new EntityVariables(entity)), MATCHED, FILTERED_OUT);
    }

    /** Behind the conditions of a GQL query that the server cannot apply beside a key range. */
    static WhereFilter query(PageMapper inner, JobQuery query) {
        return new WhereFilter(inner, "gql", query::matches, MATCHING, NOT_MATCHING);
    }

    @Override
    public MapResult map(Page page) {
        List<Key> keys = new ArrayList<>();
        List<Entity> entities = new ArrayList<>();
        EntitySkips skips = new EntitySkips();
        long filteredOut = 0;
        for (Entity entity : page.entities()) {
            try {
                if (condition.test(entity)) {
                    keys.add(entity.getKey());
                    entities.add(entity);
                } else {
                    filteredOut++;
                }
            } catch (ExpressionFailure failure) {
                skips.add(entity.getKey(), name, failure);
            }
        }
        MapResult result = keys.isEmpty() ? MapResult.none()
                : inner.map(new Page(keys, inner.needsEntities() ? entities : List.of(), page.related()));
        Map<String, Long> counters = skips.addCountersTo(new HashMap<>(result.counters()));
        counters.merge(matched, (long) keys.size(), Long::sum);
        counters.merge(this.filteredOut, filteredOut, Long::sum);
        List<MapResult.Problem> problems = new ArrayList<>(skips.problems());
        problems.addAll(result.problems());
        return new MapResult(result.puts(), result.deletes(), result.skipped() + skips.count(), counters,
                result.lines(), problems);
    }


    @Override
    public boolean needsEntities() {
        return true;
    }



}
