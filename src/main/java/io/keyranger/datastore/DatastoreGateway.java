package io.keyranger.datastore;

import com.google.cloud.datastore.AggregationQuery;
import com.google.cloud.datastore.AggregationResult;
import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.aggregation.Aggregation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read access to one database for browsing: namespaces, kinds, properties, counts and cursor-paged entities.
 * Every call names its namespace explicitly; "" is the default namespace.
 */
public final class DatastoreGateway {
    private static final Logger LOG = LoggerFactory.getLogger(DatastoreGateway.class);
    private static final int SCAN_BATCH = 1000;

    private final Datastore datastore;

    public DatastoreGateway(Datastore datastore) {
        this.datastore = datastore;
    }

    public Datastore datastore() {
        return datastore;
    }

    /** All namespaces that hold data, the default one ("") first. */
    public List<String> namespaces() {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace("").setKind("__namespace__").build();
        List<String> names = new ArrayList<>();
        QueryResults<Key> results = datastore.run(query);
        while (results.hasNext()) {
            Key key = results.next();
            names.add(key.hasName() ? key.getName() : "");
        }
        names.sort(String::compareTo);
        return names;
    }

    /** Kinds in a namespace, sorted; reserved and bookkeeping kinds only when asked for. */
    public List<String> kinds(String namespace, boolean includeHidden) {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace(namespace).setKind("__kind__").build();
        List<String> kinds = new ArrayList<>();
        datastore.run(query).forEachRemaining(key -> {
            String kind = key.getName();
            if (includeHidden || !BookkeepingKinds.isHidden(kind)) {
                kinds.add(kind);
            }
        });
        kinds.sort(String::compareTo);
        return kinds;
    }

    /** Properties of a kind with their value types, from {@code __property__}. Unindexed properties do not appear. */
    public List<PropertyInfo> properties(String namespace, String kind) {
        Key kindKey = datastore.newKeyFactory().setNamespace(namespace).setKind("__kind__").newKey(kind);
        EntityQuery query = Query.newEntityQueryBuilder().setNamespace(namespace).setKind("__property__")
                .setFilter(PropertyFilter.hasAncestor(kindKey)).build();
        Map<String, List<String>> byName = new TreeMap<>();
        datastore.run(query).forEachRemaining(entity -> {
            List<String> types = byName.computeIfAbsent(entity.getKey().getName(), n -> new ArrayList<>());
            if (entity.contains("property_representation")) {
                for (Value<?> value : entity.getList("property_representation")) {
                    String type = PropertyInfo.readableType(((StringValue) value).get());
                    if (!types.contains(type)) {
                        types.add(type);
                    }
                }
            }
        });
        List<PropertyInfo> result = new ArrayList<>();
        byName.forEach((name, types) -> result.add(new PropertyInfo(name, types)));
        return result;
    }

    /**
     * Counts a kind exactly. Uses COUNT aggregation where the server has it, and otherwise (the legacy emulator answers
     * UNIMPLEMENTED) counts keys page by page, reporting progress and honouring cancellation between pages.
     */
    public EntityCount count(String namespace, String kind, ProgressListener progress, Cancellation cancellation) {
        KeyQuery keys = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).build();
        try {
            AggregationQuery aggregation = Query.newAggregationQueryBuilder().setNamespace(namespace).over(keys)
                    .addAggregation(Aggregation.count().as("total")).build();
            AggregationResult result = datastore.runAggregation(aggregation).get(0);
            long total = result.getLong("total");
            progress.progress(total, total);
            return new EntityCount(total, EntityCount.Method.AGGREGATION);
        } catch (DatastoreException e) {
            if (!isUnimplemented(e)) {
                throw e;
            }
            LOG.debug("COUNT aggregation unavailable ({}); counting keys instead", e.getMessage());
        }
        return new EntityCount(scanCount(namespace, kind, progress, cancellation), EntityCount.Method.KEYS_ONLY_SCAN);
    }

    private long scanCount(String namespace, String kind, ProgressListener progress, Cancellation cancellation) {
        long count = 0;
        Cursor cursor = null;
        while (true) {
            cancellation.check();
            KeyQuery.Builder builder = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).setLimit(SCAN_BATCH);
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
        return e.getCode() == 501 || "UNIMPLEMENTED".equals(reason) || message.contains("unimplemented");
    }

    /** Reads one page of a kind in key order, starting at {@code cursor} (null for the first page). */
    public EntityPage page(String namespace, String kind, Cursor cursor, int pageSize) {
        EntityQuery.Builder builder = Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind)
                .setLimit(pageSize + 1);
        if (cursor != null) {
            builder.setStartCursor(cursor);
        }
        QueryResults<Entity> results = datastore.run(builder.build());
        List<Entity> entities = new ArrayList<>(pageSize);
        Cursor endCursor = null;
        Iterator<Entity> it = results;
        while (it.hasNext()) {
            if (entities.size() == pageSize) {
                // One more entity exists: the next page starts after the last one shown.
                return new EntityPage(entities, endCursor);
            }
            entities.add(it.next());
            endCursor = results.getCursorAfter();
        }
        return new EntityPage(entities, null);
    }

    /** Whether a kind has at least one entity in the namespace. */
    public boolean kindExists(String namespace, String kind) {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).setLimit(1).build();
        return datastore.run(query).hasNext();
    }
}
