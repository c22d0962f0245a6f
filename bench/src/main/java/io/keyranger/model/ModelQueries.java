package io.keyranger.model;

import com.google.datastore.v1.AggregationQuery;
import com.google.datastore.v1.AggregationResult;
import com.google.datastore.v1.AggregationResultBatch;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.EntityResult;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.QueryResultBatch;
import com.google.datastore.v1.Value;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.rpc.Code;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * Answers the queries KeyRanger sends, as production would: one kind, {@code __key__} ranges and ancestors, equality
 * and range filters on indexed properties, keys-only, order by {@code __key__} (either way) or {@code __scatter__},
 * offset, limit and cursors; COUNT; and the {@code __namespace__}, {@code __kind__} and {@code __property__} metadata.
 * A key range is found in the sorted map in O(log n) and read in O(page); an equality filter reads the keys its
 * property's index lists under the value instead ({@link PropertyIndex}); filters are applied while reading.
 */
final class ModelQueries {
    /** Most results in one batch; the client asks again with the end cursor (production batches similarly). */
    static final int BATCH = 1_000;

    private final ModelData data;
    private final ModelMetadata metadata;

    ModelQueries(ModelData data) {
        this.data = data;
        this.metadata = new ModelMetadata(data);
    }

    /**
     * Runs a query as of {@code time} ({@link ModelVersions#LIVE}: now); {@code read} sees every entity returned (a
     * transaction records its version). Metadata kinds are answered as they are now.
     */
    QueryResultBatch run(PartitionId partition, Query query, long time, Consumer<Stored> read) {
        if (query.getKindCount() != 1) {
            throw new ModelError(Code.INVALID_ARGUMENT, "the model answers queries over exactly one kind");
        }
        String kind = query.getKind(0).getName();
        if (kind.startsWith("__") && kind.endsWith("__")) {
            return metadata.answer(partition, kind, query);
        }
        QueryPlan plan = QueryPlan.of(data, partition, query);
        boolean keysOnly = query.getProjectionCount() == 1
                && query.getProjection(0).getProperty().getName().equals("__key__");
        int limit = query.hasLimit() ? query.getLimit().getValue() : Integer.MAX_VALUE;
        int offset = query.getOffset();
        QueryResultBatch.Builder batch = QueryResultBatch.newBuilder()
                .setEntityResultType(keysOnly ? EntityResult.ResultType.KEY_ONLY : EntityResult.ResultType.FULL)
                .setSnapshotVersion(data.currentVersion()).setReadTime(readTime(time));
        Key endCursor = query.getEndCursor().isEmpty() ? null : cursorKey(query.getEndCursor());
        Iterator<Stored> rows = plan.rows(query.getStartCursor().isEmpty() ? null
                : cursorKey(query.getStartCursor()), time);
        int skipped = 0;
        int returned = 0;
        Key last = null;
        while (rows.hasNext()) {
            Stored row = rows.next();
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
                if (last != null) {
                    batch.setEndCursor(cursor(last));
                }
                return batch.setSkippedResults(skipped).build();
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

    /** COUNT over a query as of {@code time} (up_to respected); other aggregations are refused. */
    AggregationResultBatch aggregate(PartitionId partition, AggregationQuery aggregation, long time) {
        AggregationResult.Builder result = AggregationResult.newBuilder();
        for (AggregationQuery.Aggregation a : aggregation.getAggregationsList()) {
            if (!a.hasCount()) {
                throw new ModelError(Code.UNIMPLEMENTED, "the model answers COUNT aggregations only");
            }
            long upTo = a.getCount().hasUpTo() ? a.getCount().getUpTo().getValue() : Long.MAX_VALUE;
            Query nested = aggregation.getNestedQuery();
            QueryPlan plan = QueryPlan.of(data, partition, nested);
            long count = 0;
            for (Iterator<Stored> rows = plan.rows(null, time); rows.hasNext() && count < upTo; ) {
                if (plan.matches(rows.next().entity())) {
                    count++;
                }
            }
            result.putAggregateProperties(a.getAlias().isEmpty() ? "property_1" : a.getAlias(),
                    Value.newBuilder().setIntegerValue(count).build());
        }
        return AggregationResultBatch.newBuilder().addAggregationResults(result).setReadTime(readTime(time))
                .setMoreResults(QueryResultBatch.MoreResultsType.NO_MORE_RESULTS).build();
    }

    /** The moment a read answers for: the one it asked for, or now. */
    static Timestamp readTime(long time) {
        return ModelVersions.timestamp(time == ModelVersions.LIVE ? ModelVersions.nowMicros() : time);
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
