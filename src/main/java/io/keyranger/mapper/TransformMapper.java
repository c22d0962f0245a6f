package io.keyranger.mapper;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueBuilder;
import com.google.cloud.datastore.ValueType;
import io.keyranger.mapper.cel.CelValues;
import io.keyranger.mapper.cel.EntityExpression;
import io.keyranger.mapper.cel.EntityVariables;
import io.keyranger.mapper.cel.ExpressionFailure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sets properties to the values of CEL expressions and removes others, entity by entity. Every expression sees the
 * entity as it was read (so {@code tier: "balance > 1000 ? 'gold' : tier"} reads the old balance even when
 * {@code balance} is set too). An entity any expression fails on is skipped whole, counted by reason, and its key
 * and reason reported; it never fails the page. A replaced value of the same type keeps its index setting; new
 * values are indexed unless listed as unindexed, or too long to index (strings and blobs over 1,500 bytes).
 */
final class TransformMapper implements PageMapper {
    /** Counter of entities whose transform changed nothing (they are not written). */
    static final String UNCHANGED = "unchanged";
    private static final int MAX_INDEXED_BYTES = 1500;

    private final Map<String, EntityExpression> set;
    private final List<String> remove;
    private final Set<String> unindexed;

    TransformMapper(Map<String, EntityExpression> set, List<String> remove, Set<String> unindexed) {
        this.set = set;
        this.remove = remove;
        this.unindexed = unindexed;
    }

    @Override
    public String name() {
        return "transform";
    }

    @Override
    public boolean needsEntities() {
        return true;
    }

    @Override
    public boolean writes() {
        return true;
    }

    @Override
    public MapResult map(Page page) {
        List<Entity> puts = new ArrayList<>();
        EntitySkips skips = new EntitySkips();
        long unchanged = 0;
        for (Entity entity : page.entities()) {
            EntityVariables variables = new EntityVariables(entity);
            Entity.Builder next = Entity.newBuilder(entity);
            boolean failed = false;
            for (Map.Entry<String, EntityExpression> assignment : set.entrySet()) {
                EntityExpression expression = assignment.getValue();
                try {
                    Value<?> value = CelValues.toDatastore(expression.evaluate(variables));
                    next.set(assignment.getKey(), indexed(assignment.getKey(), value, entity));
                } catch (ExpressionFailure failure) {
                    skips.add(entity.getKey(), expression.name(), failure);
                    failed = true;
                    break;
                }
            }
            if (failed) {
                continue;
            }
            remove.forEach(next::remove);
            Entity after = next.build();
            if (after.equals(entity)) {
                unchanged++;
            } else {
                puts.add(after);
            }
        }
        Map<String, Long> counters = skips.addCountersTo(new HashMap<>());
        if (unchanged > 0) {
            counters.put(UNCHANGED, unchanged);
        }
        return new MapResult(puts, List.of(), skips.count(), counters, List.of(), skips.problems());
    }

    private Value<?> indexed(String property, Value<?> value, Entity entity) {
        boolean exclude = unindexed.contains(property);
        if (!exclude && entity.contains(property)) {
            Value<?> previous = entity.getValue(property);
            exclude = previous.getType() == value.getType() && excluded(previous);
        }
        return withIndexing(value, exclude);
    }

    private static boolean excluded(Value<?> value) {
        if (value.getType() == ValueType.LIST) {
            return ((ListValue) value).get().stream().anyMatch(Value::excludeFromIndexes);
        }
        return value.excludeFromIndexes();
    }

    /** The value excluded from indexes or not; a list's setting goes on its elements, where Datastore reads it. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Value<?> withIndexing(Value<?> value, boolean exclude) {
        if (value.getType() == ValueType.LIST) {
            List<Value<?>> items = new ArrayList<>();
            for (Value<?> item : ((ListValue) value).get()) {
                items.add(withIndexing(item, exclude));
            }
            return ListValue.of(items);
        }
        boolean off = exclude || tooLongToIndex(value);
        return off == value.excludeFromIndexes() ? value
                : (Value<?>) ((ValueBuilder) value.toBuilder()).setExcludeFromIndexes(off).build();
    }

    private static boolean tooLongToIndex(Value<?> value) {
        return switch (value.getType()) {
            case STRING -> ((String) value.get()).getBytes(StandardCharsets.UTF_8).length > MAX_INDEXED_BYTES;
            case BLOB -> ((Blob) value.get()).getLength() > MAX_INDEXED_BYTES;
            default -> false;
        };
    }
}
