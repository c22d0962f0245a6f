package io.keyranger.model;

import com.google.datastore.v1.ArrayValue;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.EntityResult;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.QueryResultBatch;
import com.google.datastore.v1.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The metadata kinds KeyRanger reads: {@code __namespace__}, {@code __kind__} and {@code __property__}, as they are now
 * (a read of the past is answered with the present here).
 */
final class ModelMetadata {
    private final ModelData data;

    ModelMetadata(ModelData data) {
        this.data = data;
    }

    /** {@code __namespace__}, {@code __kind__} and {@code __property__}; statistics kinds are empty here. */
    QueryResultBatch answer(PartitionId partition, String kind, Query query) {
        List<Entity> out = new ArrayList<>();
        PartitionId.Builder keys = partition.toBuilder();
        switch (kind) {
            case "__namespace__" -> {
                TreeSet<String> namespaces = new TreeSet<>();
                for (ModelData.Partition p : data.partitions()) {
                    if (p.project().equals(partition.getProjectId()) && p.database().equals(partition.getDatabaseId())
                            && !data.kinds(p).values().stream().allMatch(ModelData.Table::isEmpty)) {
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
                if (!table.isEmpty()) {
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
            for (Stored row : entry.getValue().rows.values()) {
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
}
