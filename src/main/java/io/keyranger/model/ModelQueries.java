package io.keyranger.model;

import com.google.datastore.v1.AggregationQuery;
import com.google.datastore.v1.AggregationResult;
import com.google.datastore.v1.AggregationResultBatch;
import com.google.datastore.v1.ArrayValue;
import com.google.datastore.v1.CompositeFilter;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.EntityResult;
import com.google.datastore.v1.Filter;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.PropertyOrder;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.QueryResultBatch;
import com.google.datastore.v1.Value;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.Code;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Answers the queries KeyRanger sends, as production would: one kind, {@code __key__} ranges and ancestors, equality
 * and range filters on indexed properties, keys-only, order by {@code __key__} (either way) or {@code __scatter__},
 * offset, limit and cursors; COUNT; and the {@code __namespace__}, {@code __kind__} and {@code __property__} metadata.
 * A key range is found in the sorted map in O(log n) and read in O(page); filters are applied while reading it.
 */
final class ModelQueries {
    /** Most results in one batch; the client asks again with the end cursor (production batches similarly). */
    static final int BATCH = 1_000;

    private final ModelData data;

    ModelQueries(ModelData data) {
        this.data = data;
    }

    /**
     * Runs a query; {@code read} sees every entity returned (a transaction records its version).
     */
    QueryResultBatch run(PartitionId partition, Query query, Consumer<ModelData.Stored> read) {
        if (query.getKindCount() != 1) {
            throw new ModelError(Code.INVALID_ARGUMENT, "the model answers queries over exactly one kind");
        }
        String kind = query.getKind(0).getName();
        if (kind.startsWith("__") && kind.endsWith("__")) {
            return metadata(partition, kind, query);
        }
        Plan plan = plan(partition, query);
        boolean keysOnly = query.getProjectionCount() == 1
                && query.getProjection(0).getProperty().getName().equals("__key__");
        int limit = query.hasLimit() ? query.getLimit().getValue() : Integer.MAX_VALUE;
        int offset = query.getOffset();
        QueryResultBatch.Builder batch = QueryResultBatch.newBuilder()
                .setEntityResultType(keysOnly ? EntityResult.ResultType.KEY_ONLY : EntityResult.ResultType.FULL)
                .setSnapshotVersion(data.currentVersion());
        Key endCursor = query.getEndCursor().isEmpty() ? null : cursorKey(query.getEndCursor());
        Iterator<ModelData.Stored> rows = plan.rows(query.getStartCursor().isEmpty() ? null
                : cursorKey(query.getStartCursor()));
        int skipped = 0;
        int returned = 0;
        Key last = null;
        while (rows.hasNext()) {
            ModelData.Stored row = rows.next();
            Key key = row.entity().getKey();
            if (endCursor != null && plan.compare(key, endCursor) > 0) {
                break;
            }
            if (!plan.matches(row.entity())) {
                continue;
            }
            if (skipped < offset) {
                skipped++;
                last = key;
                continue;
            }
            if (returned == limit || returned == BATCH) {
                batch.setMoreResults(returned == limit ? QueryResultBatch.MoreResultsType.MORE_RESULTS_AFTER_LIMIT
                        : QueryResultBatch.MoreResultsType.NOT_FINISHED);
                return batch.setSkippedResults(skipped).setEndCursor(cursor(last)).build();
            }
            read.accept(row);
            Entity entity = keysOnly ? Entity.newBuilder().setKey(key).build() : row.entity();
            batch.addEntityResults(EntityResult.newBuilder().setEntity(entity).setVersion(row.version())
                    .setCursor(cursor(key)));
            returned++;
            last = key;
        }
        batch.setMoreResults(returned == limit && limit != Integer.MAX_VALUE
                ? QueryResultBatch.MoreResultsType.MORE_RESULTS_AFTER_LIMIT
                : QueryResultBatch.MoreResultsType.NO_MORE_RESULTS);
        if (last != null) {
            batch.setEndCursor(cursor(last));
        }
        return batch.setSkippedResults(skipped).build();
    }

    /** COUNT over a query (up_to respected); other aggregations are refused. */
    AggregationResultBatch aggregate(PartitionId partition, AggregationQuery aggregation) {
        AggregationResult.Builder result = AggregationResult.newBuilder();
        for (AggregationQuery.Aggregation a : aggregation.getAggregationsList()) {
            if (!a.hasCount()) {
                throw new ModelError(Code.UNIMPLEMENTED, "the model answers COUNT aggregations only");
            }
            long upTo = a.getCount().hasUpTo() ? a.getCount().getUpTo().getValue() : Long.MAX_VALUE;
            Query nested = aggregation.getNestedQuery();
            Plan plan = plan(partition, nested);
            long count = 0;
            for (Iterator<ModelData.Stored> rows = plan.rows(null); rows.hasNext() && count < upTo; ) {
                if (plan.matches(rows.next().entity())) {
                    count++;
                }
            }
            result.putAggregateProperties(a.getAlias().isEmpty() ? "property_1" : a.getAlias(),
                    Value.newBuilder().setIntegerValue(count).build());
        }
        return AggregationResultBatch.newBuilder().addAggregationResults(result)
                .setMoreResults(QueryResultBatch.MoreResultsType.NO_MORE_RESULTS).build();
    }

    /** Where to read and what to keep. */
    private final class Plan {
        final ModelData.Table table;
        final boolean scatter;
        final boolean descending;
        Key lower;
        boolean lowerInclusive = true;
        Key upper;
        boolean upperInclusive = true;
        Key ancestor;
        final List<Predicate<Entity>> filters = new ArrayList<>();

        Plan(ModelData.Table table, boolean scatter, boolean descending) {
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

        Iterator<ModelData.Stored> rows(Key after) {
            if (table == null) {
                return java.util.Collections.emptyIterator();
            }
            if (scatter) {
                Iterator<Key> keys = (after == null ? table.scatter : table.scatter.tailMap(after, false))
                        .keySet().iterator();
                return new Iterator<>() {
                    ModelData.Stored next = advance();

                    private ModelData.Stored advance() {
                        while (keys.hasNext()) {
                            ModelData.Stored row = table.rows.get(keys.next());
                            if (row != null) {
                                return row;
                            }
                        }
                        return null;
                    }

                    @Override
                    public boolean hasNext() {
                        return next != null;
                    }

                    @Override
                    public ModelData.Stored next() {
                        ModelData.Stored row = next;
                        next = advance();
                        return row;
                    }
                };
            }
            java.util.NavigableMap<Key, ModelData.Stored> range = table.rows;
            if (lower != null) {
                range = range.tailMap(lower, lowerInclusive);
            }
            if (upper != null) {
                if (lower != null && data.order().compare(lower, upper) > 0) {
                    return java.util.Collections.emptyIterator();
                }
                range = range.headMap(upper, upperInclusive);
            }
            if (descending) {
                range = range.descendingMap();
            }
            if (after != null) {
                range = range.tailMap(after, false);
            }
            return range.values().iterator();
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
    }

    private Plan plan(PartitionId partition, Query query) {
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
        Plan plan = new Plan(table, scatter, descending);
        if (query.hasFilter()) {
            addFilter(plan, query.getFilter());
        }
        if (scatter && (plan.lower != null || plan.upper != null)) {
            Key lower = plan.lower;
            Key upper = plan.upper;
            boolean li = plan.lowerInclusive;
            boolean ui = plan.upperInclusive;
            plan.filters.add(e -> inRange(e.getKey(), lower, li, upper, ui));
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

    private void addFilter(Plan plan, Filter filter) {
        if (filter.hasCompositeFilter()) {
            CompositeFilter composite = filter.getCompositeFilter();
            if (composite.getOp() != CompositeFilter.Operator.AND) {
                throw new ModelError(Code.UNIMPLEMENTED, "the model answers AND filters only");
            }
            composite.getFiltersList().forEach(f -> addFilter(plan, f));
            return;
        }
        PropertyFilter f = filter.getPropertyFilter();
        String name = f.getProperty().getName();
        if (name.equals("__key__")) {
            if (f.getOp() == PropertyFilter.Operator.HAS_ANCESTOR) {
                plan.ancestor = f.getValue().getKeyValue();
                tighten(plan, plan.ancestor, true, true);
                return;
            }
            Key key = f.getValue().getKeyValue();
            switch (f.getOp()) {
                case GREATER_THAN -> tighten(plan, key, false, true);
                case GREATER_THAN_OR_EQUAL -> tighten(plan, key, true, true);
                case LESS_THAN -> tighten(plan, key, false, false);
                case LESS_THAN_OR_EQUAL -> tighten(plan, key, true, false);
                case EQUAL -> {
                    tighten(plan, key, true, true);
                    tighten(plan, key, true, false);
                }
                default -> throw new ModelError(Code.UNIMPLEMENTED, "the model does not answer " + f.getOp()
                        + " on __key__");
            }
            return;
        }
        if (f.getOp() == PropertyFilter.Operator.HAS_ANCESTOR) {
            throw new ModelError(Code.INVALID_ARGUMENT, "HAS_ANCESTOR applies to __key__ only");
        }
        Value wanted = f.getValue();
        PropertyFilter.Operator op = f.getOp();
        plan.filters.add(entity -> {
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

    private void tighten(Plan plan, Key key, boolean inclusive, boolean isLower) {
        if (isLower) {
            int c = plan.lower == null ? 1 : data.order().compare(key, plan.lower);
            if (c > 0 || (c == 0 && !inclusive)) {
                plan.lower = key;
                plan.lowerInclusive = inclusive;
            }
        } else {
            int c = plan.upper == null ? -1 : data.order().compare(key, plan.upper);
            if (c < 0 || (c == 0 && !inclusive)) {
                plan.upper = key;
                plan.upperInclusive = inclusive;
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

    /** {@code __namespace__}, {@code __kind__} and {@code __property__}; statistics kinds are empty here. */
    private QueryResultBatch metadata(PartitionId partition, String kind, Query query) {
        List<Entity> out = new ArrayList<>();
        PartitionId.Builder keys = partition.toBuilder();
        switch (kind) {
            case "__namespace__" -> {
                TreeSet<String> namespaces = new TreeSet<>();
                for (ModelData.Partition p : data.partitions()) {
                    if (p.project().equals(partition.getProjectId()) && p.database().equals(partition.getDatabaseId())
                            && !data.kinds(p).values().stream().allMatch(t -> t.rows.isEmpty())) {
                        namespaces.add(p.namespace());
                    }
                }
                for (String ns : namespaces) {
                    Key.PathElement.Builder e = Key.PathElement.newBuilder().setKind(kind);
                    if (ns.isEmpty()) {
                        e.setId(1);
                    } else {
                        e.setName(ns);
                    }
                    out.add(Entity.newBuilder().setKey(Key.newBuilder().setPartitionId(keys.setNamespaceId(""))
                            .addPath(e)).build());
                }
            }
            case "__kind__" -> new TreeMap<>(data.kinds(ModelData.Partition.of(partition))).forEach((name, table) -> {
                if (!table.rows.isEmpty()) {
                    out.add(Entity.newBuilder().setKey(Key.newBuilder().setPartitionId(partition)
                            .addPath(Key.PathElement.newBuilder().setKind(kind).setName(name))).build());
                }
            });
            case "__property__" -> properties(partition, query, out);
            default -> { }
        }
        boolean keysOnly = query.getProjectionCount() == 1
                && query.getProjection(0).getProperty().getName().equals("__key__");
        QueryResultBatch.Builder batch = QueryResultBatch.newBuilder()
                .setEntityResultType(keysOnly ? EntityResult.ResultType.KEY_ONLY : EntityResult.ResultType.FULL)
                .setMoreResults(QueryResultBatch.MoreResultsType.NO_MORE_RESULTS);
        int limit = query.hasLimit() ? query.getLimit().getValue() : Integer.MAX_VALUE;
        out.stream().limit(limit).forEach(e -> batch.addEntityResults(EntityResult.newBuilder()
                .setEntity(keysOnly ? Entity.newBuilder().setKey(e.getKey()).build() : e)));
        return batch.build();
    }

    private void properties(PartitionId partition, Query query, List<Entity> out) {
        String onlyKind = null;
        if (query.hasFilter() && query.getFilter().hasPropertyFilter()
                && query.getFilter().getPropertyFilter().getOp() == PropertyFilter.Operator.HAS_ANCESTOR) {
            Key kindKey = query.getFilter().getPropertyFilter().getValue().getKeyValue();
            onlyKind = kindKey.getPath(0).getName();
        }
        for (Map.Entry<String, ModelData.Table> entry
                : new TreeMap<>(data.kinds(ModelData.Partition.of(partition))).entrySet()) {
            if (onlyKind != null && !onlyKind.equals(entry.getKey())) {
                continue;
            }
            Map<String, TreeSet<String>> types = new TreeMap<>();
            for (ModelData.Stored row : entry.getValue().rows.values()) {
                row.entity().getPropertiesMap().forEach((name, value) -> {
                    if (!value.getExcludeFromIndexes()) {
                        List<Value> values = value.hasArrayValue() ? value.getArrayValue().getValuesList()
                                : List.of(value);
                        values.forEach(v -> types.computeIfAbsent(name, n -> new TreeSet<>())
                                .add(ModelValues.representation(v)));
                    }
                });
            }
            types.forEach((name, reps) -> {
                Key key = Key.newBuilder().setPartitionId(partition)
                        .addPath(Key.PathElement.newBuilder().setKind("__kind__").setName(entry.getKey()))
                        .addPath(Key.PathElement.newBuilder().setKind("__property__").setName(name)).build();
                ArrayValue.Builder array = ArrayValue.newBuilder();
                reps.forEach(r -> array.addValues(Value.newBuilder().setStringValue(r)));
                out.add(Entity.newBuilder().setKey(key)
                        .putProperties("property_representation", Value.newBuilder().setArrayValue(array).build())
                        .build());
            });
        }
    }

    static ByteString cursor(Key key) {
        return key.toByteString();
    }

    private static Key cursorKey(ByteString cursor) {
        try {
            return Key.parseFrom(cursor);
        } catch (InvalidProtocolBufferException e) {
            throw new ModelError(Code.INVALID_ARGUMENT, "not a cursor of this server");
        }
    }
}
