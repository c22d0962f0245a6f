package io.keyranger.sharding;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a uniform random sample of a kind's keys: a keys-only query ordered by the hidden {@code __scatter__}
 * property. The user's equality filters go into the query so that the sample follows the filtered set; when the
 * composite index that needs is missing, it samples the whole kind and says so.
 */
public final class ScatterSampler {
    private final Datastore datastore;
    private final KeyOrder order;

    public ScatterSampler(Datastore datastore, KeyOrder order) {
        this.datastore = datastore;
        this.order = order;
    }

    /**
     * The sampled keys sorted in key order.
     *
     * @param keys           the sample
     * @param filtersApplied whether the user's filters restricted the sample
     */
    public record Sample(List<Key> keys, boolean filtersApplied) {
    }

    public Sample sample(PlanRequest request) {
        try {
            return new Sample(run(request, request.filters()), true);
        } catch (DatastoreException e) {
            if (request.filters().isEmpty() || !isMissingIndex(e)) {
                throw e;
            }
            return new Sample(run(request, List.of()), false);
        }
    }

    private List<Key> run(PlanRequest request, List<PropertyFilter> filters) {
        KeyQuery.Builder query = Query.newKeyQueryBuilder().setNamespace(request.namespace()).setKind(request.kind())
                .setOrderBy(OrderBy.asc("__scatter__")).setLimit(request.sampleLimit());
        Filter filter = and(filters);
        if (filter != null) {
            query.setFilter(filter);
        }
        List<Key> keys = new ArrayList<>(request.sampleLimit());
        datastore.run(query.build()).forEachRemaining(keys::add);
        keys.sort(order);
        return keys;
    }

    public static Filter and(List<PropertyFilter> filters) {
        if (filters.isEmpty()) {
            return null;
        }
        if (filters.size() == 1) {
            return filters.get(0);
        }
        return CompositeFilter.and(filters.get(0), filters.subList(1, filters.size()).toArray(new Filter[0]));
    }

    static boolean isMissingIndex(DatastoreException e) {
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return "FAILED_PRECONDITION".equals(e.getReason()) || message.contains("no matching index");
    }
}
