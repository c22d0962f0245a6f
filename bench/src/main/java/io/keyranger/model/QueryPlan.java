package io.keyranger.model;

import com.google.datastore.v1.CompositeFilter;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Filter;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.PropertyOrder;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.Value;
import com.google.rpc.Code;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Predicate;

/**
 * Where a query over one kind reads and what it keeps: a key range of the kind's sorted map (or its scatter keys, or
 * the keys its first equality filter's {@link PropertyIndex} lists under the value), narrowed by {@code __key__} bounds
 * and an ancestor, with property filters applied to each entity read.
 */
final class QueryPlan {
    private final ModelData data;
    private final ModelData.Table table;
    private final boolean scatter;
    private boolean propertyFiltered;
    private final boolean descending;
    private Key lower;
    private boolean lowerInclusive = true;
    private Key upper;
    private boolean upperInclusive = true;
    private Key ancestor;
    private final List<Predicate<Entity>> filters = new ArrayList<>();
    /** The first equality filter on an indexed value: the plan reads its index's keys instead of the kind. */
    private String indexedProperty;
    private Value indexedValue;

    private QueryPlan(ModelData data, ModelData.Table table, boolean scatter, boolean descending) {
        this.data = data;
        this.table = table;
        this.scatter = scatter;
        this.descending = descending;
    }

    int compare(Key a, Key b) {
        if (scatter) {
            return table.scatter.comparator().compare(a, b);
        }
        int c = data.order().compare(a, b);
        return descending ? -c : c;
    }

    /**
     * The versions a read as of {@code time} ({@link ModelVersions#LIVE} for now) sees in the plan's range, after the
     * key {@code after} (a cursor) when given: entities deleted since are there, ones created since are not.
     */
    Iterator<Stored> rows(Key after, long time) {
        if (table == null) {
            return Collections.emptyIterator();
        }
        if (scatter) {
            return heads((after == null ? table.scatter : table.scatter.tailMap(after, false)).keySet().iterator(),
                    time);
        }
        if (indexedProperty != null) {
            NavigableMap<Key, Boolean> listed = range(table.index(indexedProperty).keys(indexedValue), after);
            return listed == null ? Collections.emptyIterator() : heads(listed.keySet().iterator(), time);
        }
        NavigableMap<Key, Stored> live = range(table.rows, after);
        if (live == null) {
            return Collections.emptyIterator();
        }
        return visible(time == ModelVersions.LIVE ? live.values().iterator()
                : merged(live, range(table.gone, after)), time);
    }

    /** The versions a read as of {@code time} sees of {@code keys}, in their order. */
    private Iterator<Stored> heads(Iterator<Key> keys, long time) {
        return visible(new Iterator<>() {
            @Override
            public boolean hasNext() {
                return keys.hasNext();
            }

            @Override
            public Stored next() {
                return table.head(keys.next(), time);
            }
        }, time);
    }

    /** The plan's part of {@code map}, in its order, after {@code after}; null when the bounds cross. */
    private <V> NavigableMap<Key, V> range(NavigableMap<Key, V> map, Key after) {
        NavigableMap<Key, V> range = map;
        if (lower != null) {
            range = range.tailMap(lower, lowerInclusive);
        }
        if (upper != null) {
            if (lower != null && data.order().compare(lower, upper) > 0) {
                return null;
            }
            range = range.headMap(upper, upperInclusive);
        }
        if (descending) {
            range = range.descendingMap();
        }
        if (after != null) {
            range = range.tailMap(after, false);
        }
        return range;
    }

    /**
     * Live entities and deletions in one key order; a key caught in both while a commit moves it (it adds before it
     * removes) is read once.
     */
    private static Iterator<Stored> merged(NavigableMap<Key, Stored> live, NavigableMap<Key, Stored> gone) {
        Comparator<? super Key> order = live.comparator();
        Iterator<Map.Entry<Key, Stored>> a = live.entrySet().iterator();
        Iterator<Map.Entry<Key, Stored>> b = gone.entrySet().iterator();
        return new Iterator<>() {
            Map.Entry<Key, Stored> nextA = a.hasNext() ? a.next() : null;
            Map.Entry<Key, Stored> nextB = b.hasNext() ? b.next() : null;

            @Override
            public boolean hasNext() {
                return nextA != null || nextB != null;
            }

            @Override
            public Stored next() {
                int c = nextA == null ? 1 : nextB == null ? -1 : order.compare(nextA.getKey(), nextB.getKey());
                Stored out;
                if (c <= 0) {
                    out = nextA.getValue();
                    nextA = a.hasNext() ? a.next() : null;
                    if (c == 0) {
                        nextB = b.hasNext() ? b.next() : null;
                    }
                } else {
                    out = nextB.getValue();
                    nextB = b.hasNext() ? b.next() : null;
                }
                return out;
            }
        };
    }

    /** Each key's version as of {@code time}, leaving out keys that held no entity then (and rows gone since). */
    private static Iterator<Stored> visible(Iterator<Stored> heads, long time) {
        return new Iterator<>() {
            Stored next = advance();

            private Stored advance() {
                while (heads.hasNext()) {
                    Stored head = heads.next();
                    Stored seen = head == null ? null : head.at(time);
                    if (seen != null) {
                        return seen;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Stored next() {
                Stored row = next;
                next = advance();
                return row;
            }
        };
    }

    boolean matches(Entity entity) {
        if (ancestor != null && !isAncestor(ancestor, entity.getKey())) {
            return false;
        }
        for (Predicate<Entity> f : filters) {
            if (!f.test(entity)) {
                return false;
            }
        }
        return true;
    }

    /** The plan of a structured query over one kind. */
    static QueryPlan of(ModelData data, PartitionId partition, Query query) {
        String kind = query.getKind(0).getName();
        ModelData.Table table = data.table(ModelData.Partition.of(partition), kind);
        boolean scatter = false;
        boolean descending = false;
        if (query.getOrderCount() > 1) {
            throw new ModelError(Code.INVALID_ARGUMENT, "the model orders by one property at most");
        }
        if (query.getOrderCount() == 1) {
            PropertyOrder order = query.getOrder(0);
            String name = order.getProperty().getName();
            if (name.equals("__scatter__")) {
                scatter = true;
            } else if (name.equals("__key__")) {
                descending = order.getDirection() == PropertyOrder.Direction.DESCENDING;
            } else {
                throw new ModelError(Code.FAILED_PRECONDITION, "no matching index found: the model orders by __key__ "
                        + "or __scatter__ only");
            }
        }
        QueryPlan plan = new QueryPlan(data, table, scatter, descending);
        if (query.hasFilter()) {
            plan.addFilter(query.getFilter());
        }
        if (scatter && plan.propertyFiltered) {
            // production keeps no built-in index of a property and __scatter__ together: it takes a composite one
            throw new ModelError(Code.FAILED_PRECONDITION, "no matching index found: ordering by __scatter__ with a "
                    + "property filter needs a composite index");
        }
        if (scatter && (plan.lower != null || plan.upper != null)) {
            Key lower = plan.lower;
            Key upper = plan.upper;
            boolean li = plan.lowerInclusive;
            boolean ui = plan.upperInclusive;
            plan.filters.add(e -> plan.inRange(e.getKey(), lower, li, upper, ui));
        }
        return plan;
    }

    private boolean inRange(Key key, Key lower, boolean li, Key upper, boolean ui) {
        if (lower != null) {
            int c = data.order().compare(key, lower);
            if (c < 0 || (c == 0 && !li)) {
                return false;
            }
        }
        if (upper != null) {
            int c = data.order().compare(key, upper);
            return c < 0 || (c == 0 && ui);
        }
        return true;
    }

    private void addFilter(Filter filter) {
        if (filter.hasCompositeFilter()) {
            CompositeFilter composite = filter.getCompositeFilter();
            if (composite.getOp() != CompositeFilter.Operator.AND) {
                throw new ModelError(Code.UNIMPLEMENTED, "the model answers AND filters only");
            }
            composite.getFiltersList().forEach(this::addFilter);
            return;
        }
        PropertyFilter f = filter.getPropertyFilter();
        String name = f.getProperty().getName();
        if (name.equals("__key__")) {
            if (f.getOp() == PropertyFilter.Operator.HAS_ANCESTOR) {
                ancestor = f.getValue().getKeyValue();
                tighten(ancestor, true, true);
                return;
            }
            Key key = f.getValue().getKeyValue();
            switch (f.getOp()) {
                case GREATER_THAN -> tighten(key, false, true);
                case GREATER_THAN_OR_EQUAL -> tighten(key, true, true);
                case LESS_THAN -> tighten(key, false, false);
                case LESS_THAN_OR_EQUAL -> tighten(key, true, false);
                case EQUAL -> {
                    tighten(key, true, true);
                    tighten(key, true, false);
                }
                default -> throw new ModelError(Code.UNIMPLEMENTED, "the model does not answer " + f.getOp()
                        + " on __key__");
            }
            return;
        }
        if (f.getOp() == PropertyFilter.Operator.HAS_ANCESTOR) {
            throw new ModelError(Code.INVALID_ARGUMENT, "HAS_ANCESTOR applies to __key__ only");
        }
        propertyFiltered = true;
        Value wanted = f.getValue();
        PropertyFilter.Operator op = f.getOp();
        if (op == PropertyFilter.Operator.EQUAL && indexedProperty == null && PropertyIndex.indexValue(wanted) != null) {
            indexedProperty = name;
            indexedValue = wanted;
        }
        filters.add(entity -> {
            Value value = entity.getPropertiesMap().get(name);
            if (value == null || value.getExcludeFromIndexes()) {
                return false;
            }
            List<Value> values = value.hasArrayValue() ? value.getArrayValue().getValuesList() : List.of(value);
            for (Value v : values) {
                int c = ModelValues.compare(v, wanted);
                boolean sameType = ModelValues.typeRank(v) == ModelValues.typeRank(wanted);
                boolean hit = switch (op) {
                    case EQUAL -> c == 0;
                    case LESS_THAN -> sameType && c < 0;
                    case LESS_THAN_OR_EQUAL -> sameType && c <= 0;
                    case GREATER_THAN -> sameType && c > 0;
                    case GREATER_THAN_OR_EQUAL -> sameType && c >= 0;
                    case NOT_EQUAL -> c != 0;
                    default -> throw new ModelError(Code.UNIMPLEMENTED, "the model does not answer " + op);
                };
                if (hit) {
                    return true;
                }
            }
            return false;
        });
    }

    private void tighten(Key key, boolean inclusive, boolean isLower) {
        if (isLower) {
            int c = lower == null ? 1 : data.order().compare(key, lower);
            if (c > 0 || (c == 0 && !inclusive)) {
                lower = key;
                lowerInclusive = inclusive;
            }
        } else {
            int c = upper == null ? -1 : data.order().compare(key, upper);
            if (c < 0 || (c == 0 && !inclusive)) {
                upper = key;
                upperInclusive = inclusive;
            }
        }
    }

    private static boolean isAncestor(Key ancestor, Key key) {
        if (ancestor.getPathCount() > key.getPathCount()) {
            return false;
        }
        for (int i = 0; i < ancestor.getPathCount(); i++) {
            if (!ancestor.getPath(i).equals(key.getPath(i))) {
                return false;
            }
        }
        return true;
    }
}
