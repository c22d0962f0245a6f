package io.keyranger.query;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.ProjectionEntity;
import com.google.cloud.datastore.ProjectionEntityQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.datastore.EntityPage;
import io.keyranger.datastore.ServerType;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a GQL query for the browser, a page at a time with cursors: every condition, order, LIMIT and OFFSET goes to
 * the server as written, so what the browser shows is what the server answers (and a query the server refuses is
 * refused with its message).
 */
public final class BrowserQuery {
    private BrowserQuery() {
    }

    /**
     * One page of the query's results.
     *
     * @param cursor where the page starts (null for the first; OFFSET applies to the first page only)
     * @param shown  how many results earlier pages showed, so that LIMIT counts over all pages
     */
    public static EntityPage page(Datastore datastore, String namespace, GqlQuery query, Cursor cursor, int pageSize,
                                  long shown) {
        int want = pageSize + 1;
        if (query.limit() != null) {
            long left = query.limit() - shown;
            if (left <= 0) {
                return new EntityPage(List.of(), null);
            }
            want = (int) Math.min(want, left);
        }
        StructuredQuery.Builder<?> builder = query.keysOnly() ? Query.newKeyQueryBuilder()
                : !query.projection().isEmpty() ? Query.newProjectionEntityQueryBuilder()
                .setProjection(query.projection().get(0), query.projection().subList(1, query.projection().size())
                        .toArray(new String[0]))
                : Query.newEntityQueryBuilder();
        builder.setNamespace(namespace).setKind(query.kind()).setLimit(want);
        if (query.distinct() && builder instanceof ProjectionEntityQuery.Builder p) {
            p.setDistinctOn(query.projection().get(0), query.projection().subList(1, query.projection().size())
                    .toArray(new String[0]));
        }
        Filter filter = filter(query.conditions());
        if (filter != null) {
            builder.setFilter(filter);
        }
        for (GqlQuery.Order order : query.orders()) {
            builder.addOrderBy(order.descending() ? OrderBy.desc(order.property()) : OrderBy.asc(order.property()));
        }
        if (cursor != null) {
            builder.setStartCursor(cursor);
        } else if (query.offset() != null) {
            builder.setOffset(query.offset());
        }
        QueryResults<?> results = datastore.run(builder.build());
        List<Entity> entities = new ArrayList<>(pageSize);
        Cursor end = null;
        while (results.hasNext()) {
            if (entities.size() == pageSize) {
                return new EntityPage(entities, end);
            }
            entities.add(asEntity(results.next()));
            end = results.getCursorAfter();
        }
        return new EntityPage(entities, null);
    }

    private static Entity asEntity(Object result) {
        if (result instanceof Entity entity) {
            return entity;
        }
        if (result instanceof Key key) {
            return Entity.newBuilder(key).build();
        }
        ProjectionEntity projected = (ProjectionEntity) result;
        Entity.Builder builder = Entity.newBuilder(projected.getKey());
        projected.getProperties().forEach(builder::set);
        return builder.build();
    }

    /** The conditions as the server's filters, all of them. */
    static Filter filter(List<GqlQuery.Condition> conditions) {
        List<Filter> filters = new ArrayList<>();
        for (GqlQuery.Condition c : conditions) {
            String p = c.property();
            filters.add(switch (c.op()) {
                case EQUAL -> PropertyFilter.eq(p, c.value());
                case LESS_THAN -> PropertyFilter.lt(p, c.value());
                case LESS_THAN_OR_EQUAL -> PropertyFilter.le(p, c.value());
                case GREATER_THAN -> PropertyFilter.gt(p, c.value());
                case GREATER_THAN_OR_EQUAL -> PropertyFilter.ge(p, c.value());
                case NOT_EQUAL -> PropertyFilter.neq(p, c.value());
                case IN -> PropertyFilter.in(p, ListValue.of(c.values()));
                case NOT_IN -> PropertyFilter.not_in(p, ListValue.of(c.values()));
                case HAS_ANCESTOR -> PropertyFilter.hasAncestor((Key) c.value().get());
            });
        }
        if (filters.isEmpty()) {
            return null;
        }
        return filters.size() == 1 ? filters.get(0)
                : CompositeFilter.and(filters.get(0), filters.subList(1, filters.size()).toArray(new Filter[0]));
    }

    /**
     * Why a server without kind, namespace and property metadata (the Firestore emulator in Datastore mode) cannot
     * answer {@code q}, and what to do instead; null when it can, or when {@code metadata} (the server has it). That
     * server refuses {@code __kind__} and {@code __namespace__} queries, and answers {@code __property__} ones with
     * nothing, which would read as a kind without properties: none of them is sent there.
     */
    public static String lacking(GqlQuery q, boolean metadata) {
        if (metadata) {
            return null;
        }
        String server = "This server (the Firestore emulator in Datastore mode)";
        return switch (q.kind()) {
            case "__kind__" -> server + " has no __kind__ metadata: it cannot list kinds. The kind list shows those "
                    + "KeyRanger knows here; to open another kind, type its name under the list.";
            case "__namespace__" -> server + " has no __namespace__ metadata: it cannot list namespaces. The "
                    + "namespace box lists those KeyRanger knows here.";
            case "__property__" -> server + " has no __property__ metadata: it answers such a query with nothing. "
                    + "The properties listed under the kinds come from a sample of the chosen kind's entities.";
            default -> null;
        };
    }

    /**
     * What the legacy Datastore emulator is known not to do, when the query asks for it and {@code server} is that
     * emulator; "" on any other server (the Firestore emulator has !=, IN, NOT IN and inequalities on several
     * properties, and its own refusals name their rule).
     */
    public static String unsupportedHint(GqlQuery q, ServerType server) {
        if (server != ServerType.EMULATOR) {
            return "";
        }
        boolean unsupported = q.conditions().stream().anyMatch(c -> c.op() == GqlQuery.Op.NOT_EQUAL
                || c.op() == GqlQuery.Op.NOT_IN || c.op() == GqlQuery.Op.IN);
        long inequalities = q.conditions().stream().filter(c -> c.op() != GqlQuery.Op.EQUAL
                && c.op() != GqlQuery.Op.HAS_ANCESTOR && c.op() != GqlQuery.Op.IN).map(GqlQuery.Condition::property)
                .distinct().count();
        return (unsupported ? " (the Datastore emulator implements neither !=, IN nor NOT IN; production does)" : "")
                + (inequalities > 1 ? " (the emulator allows inequalities on one property per query)" : "");
    }
}
