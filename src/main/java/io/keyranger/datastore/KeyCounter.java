package io.keyranger.datastore;

import com.google.cloud.datastore.AggregationQuery;
import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.aggregation.Aggregation;
import java.util.Locale;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the keys a query matches exactly. It uses COUNT aggregation where the server has it and otherwise (the
 * legacy emulator answers UNIMPLEMENTED) counts keys page by page, reporting progress and honouring cancellation
 * between pages. Once the server has said UNIMPLEMENTED, later counts go straight to the scan.
 */
public final class KeyCounter {
    private static final Logger LOG = LoggerFactory.getLogger(KeyCounter.class);
    private static final int SCAN_BATCH = 1000;

    private final Datastore datastore;
    private volatile boolean aggregationUnavailable;

    public KeyCounter(Datastore datastore) {
        this.datastore = datastore;
    }

    /** The COUNT aggregation's answer, or empty when the server does not have it. */
    public OptionalLong tryAggregate(String namespace, String kind, Filter filter) {
        if (aggregationUnavailable) {
            return OptionalLong.empty();
        }
        KeyQuery.Builder keys = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind);
        if (filter != null) {
            keys.setFilter(filter);
        }
        try {
            AggregationQuery aggregation = Query.newAggregationQueryBuilder().setNamespace(namespace)
                    .over(keys.build()).addAggregation(Aggregation.count().as("total")).build();
            return OptionalLong.of(datastore.runAggregation(aggregation).get(0).getLong("total"));
        } catch (DatastoreException e) {
            if (!isUnimplemented(e)) {
                throw e;
            }
            aggregationUnavailable = true;
            LOG.debug("COUNT aggregation unavailable ({}); counting keys instead", e.getMessage());
            return OptionalLong.empty();
        }
    }

    /** Counts the keys of {@code kind} in {@code namespace} matching {@code filter} (null: all). */
    public EntityCount count(String namespace, String kind, Filter filter, ProgressListener progress,
                             Cancellation cancellation) {
        OptionalLong aggregated = tryAggregate(namespace, kind, filter);
        if (aggregated.isPresent()) {
            progress.progress(aggregated.getAsLong(), aggregated.getAsLong());
            return new EntityCount(aggregated.getAsLong(), EntityCount.Method.AGGREGATION);
        }
        return new EntityCount(scan(namespace, kind, filter, progress, cancellation), EntityCount.Method.KEYS_ONLY_SCAN);
    }

    private long scan(String namespace, String kind, Filter filter, ProgressListener progress, Cancellation cancellation) {
        long count = 0;
        Cursor cursor = null;
        while (true) {
            cancellation.check();
            KeyQuery.Builder builder = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind)
                    .setLimit(SCAN_BATCH);
            if (filter != null) {
                builder.setFilter(filter);
            }
            if (cursor != null) {
                builder.setStartCursor(cursor);
            }
            QueryResults<Key> results = datastore.run(builder.build());
            int inBatch = 0;
            while (results.hasNext()) {
                results.next();
                inBatch++;
            }
            count += inBatch;
            progress.progress(count, -1);
            if (inBatch < SCAN_BATCH) {
                return count;
            }
            cursor = results.getCursorAfter();
        }
    }

    static boolean isUnimplemented(DatastoreException e) {
        String reason = e.getReason() == null ? "" : e.getReason();
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return e.getCode() == 501 || e.getCode() == 12 || "UNIMPLEMENTED".equals(reason)
                || message.contains("unimplemented");
    }
}
