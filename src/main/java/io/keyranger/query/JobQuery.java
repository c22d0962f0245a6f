package io.keyranger.query;

import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A GQL query as the input of a job: it is cut into key ranges like a whole kind. Conditions the server can apply
 * inside every {@code __key__} range query (= , IS NULL, HAS ANCESTOR) go to the server; the others (<, <=, >, >=,
 * !=, IN, NOT IN, and any condition on {@code __key__} but HAS ANCESTOR) cannot sit beside a key range, because the
 * server allows one inequality per query and the ranges use it, so each page's entities are read and those
 * conditions applied on the client, with Datastore's own value order. {@link #explain()} says which is which.
 *
 * @param query            the parsed query
 * @param serverFilters    the filters every range query carries
 * @param clientConditions the conditions applied to each page's entities
 * @param order            the server's key order, which the client conditions compare with
 */
public record JobQuery(GqlQuery query, List<PropertyFilter> serverFilters, List<GqlQuery.Condition> clientConditions,
                       KeyOrder order) {
    public JobQuery {
        serverFilters = List.copyOf(serverFilters);
        clientConditions = List.copyOf(clientConditions);
    }

    /**
     * Checks that the query can be a job's input and sorts its conditions.
     *
     * @throws KeyRangerException for LIMIT, OFFSET, ORDER BY (other than __key__ ascending), DISTINCT and projections
     */
    public static JobQuery of(GqlQuery query, KeyOrder order) {
        requireWholeSelection(query);
        List<PropertyFilter> server = new ArrayList<>();
        List<GqlQuery.Condition> client = new ArrayList<>();
        for (GqlQuery.Condition c : query.conditions()) {
            if (c.op() == GqlQuery.Op.HAS_ANCESTOR) {
                server.add(PropertyFilter.hasAncestor((Key) c.value().get()));
            } else if (c.op() == GqlQuery.Op.EQUAL && !c.property().equals("__key__")) {
                server.add(c.value().getType() == ValueType.NULL ? PropertyFilter.isNull(c.property())
                        : PropertyFilter.eq(c.property(), c.value()));
            } else {
                client.add(c);
            }
        }
        return new JobQuery(query, server, client, order);
    }

    /**
     * Refuses a clause a job (a run, a restore, a diff) would otherwise drop: it takes every entity the query's
     * conditions match, whole, once each, in parallel key ranges, so LIMIT, OFFSET, ORDER BY (but {@code __key__}
     * ascending, the ranges' own order), DISTINCT and a projection cannot apply. The message names the clause.
     *
     * @throws KeyRangerException naming the clause, and what to write instead
     */
    public static void requireWholeSelection(GqlQuery query) {
        String every = " a job (run, restore or diff) takes every entity the query's WHERE matches, once each, in "
                + "parallel key ranges. Remove it, and narrow the query with WHERE instead.";
        if (query.limit() != null) {
            throw new KeyRangerException("The query's LIMIT " + query.limit() + " cannot apply:" + every);
        }
        if (query.offset() != null) {
            throw new KeyRangerException("The query's OFFSET " + query.offset() + " cannot apply:" + every);
        }
        boolean keyOrder = query.orders().stream().allMatch(o -> o.property().equals("__key__") && !o.descending());
        if (!keyOrder) {
            throw new KeyRangerException("The query's ORDER BY " + String.join(", ", query.orders().stream()
                    .map(o -> o.property() + (o.descending() ? " DESC" : "")).toList()) + " cannot apply: a job's "
                    + "key ranges run in parallel, in no order. Remove it.");
        }
        if (query.distinct() || !query.projection().isEmpty()) {
            throw new KeyRangerException("The query's SELECT " + (query.distinct() ? "DISTINCT " : "")
                    + String.join(", ", query.projection()) + " cannot apply: a job reads and writes whole entities. "
                    + "Write SELECT * or SELECT __key__.");
        }
    }

    public String kind() {
        return query.kind();
    }

    /** Whether entities must be read to decide which ones match. */
    public boolean filtersOnClient() {
        return !clientConditions.isEmpty();
    }

    /** The conditions the server applies in every range query, as written ("" when none). */
    public String serverConditions() {
        return String.join(" AND ", query.conditions().stream().filter(c -> !clientConditions.contains(c))
                .map(GqlQuery.Condition::text).toList());
    }

    /** The conditions applied on the client to each page's entities, as written ("" when none). */
    public String clientConditionsText() {
        return String.join(" AND ", clientConditions.stream().map(GqlQuery.Condition::text).toList());
    }

    /** How the job runs the query, for plans and dry runs: one line each. */
    public List<String> explain() {
        List<String> lines = new ArrayList<>();
        List<String> onServer = query.conditions().stream().filter(c -> !clientConditions.contains(c))
                .map(GqlQuery.Condition::text).toList();
        lines.add("Sharded into __key__ ranges of " + query.kind() + " like a whole kind; "
                + (onServer.isEmpty() ? "every entity of the kind is in a range query."
                : "every range query carries " + String.join(" AND ", onServer) + "."));
        if (!clientConditions.isEmpty()) {
            lines.add(String.join(" AND ", clientConditions.stream().map(GqlQuery.Condition::text).toList())
                    + ": checked on the client on each page's entities (the server allows one inequality per query, "
                    + "and the key ranges use it), so the job reads every entity "
                    + (onServer.isEmpty() ? "of the kind" : "the server filters let through")
                    + ", and only those that match are mapped.");
        }
        return lines;
    }

    /** Whether an entity meets every client condition, as the server's index would decide it. */
    public boolean matches(BaseEntity<Key> entity) {
        ValueOrder values = new ValueOrder(order);
        for (GqlQuery.Condition c : clientConditions) {
            if (!holds(c, entity, values)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A condition holds when some indexed value of the property satisfies it (a list property has one index entry per
     * element; an empty list one null entry on the legacy emulator, none elsewhere); a missing or unindexed property
     * matches nothing, as on the server.
     */
    static boolean holds(GqlQuery.Condition c, BaseEntity<Key> entity, ValueOrder order) {
        List<Value<?>> indexed = new ArrayList<>();
        if (c.property().equals("__key__")) {
            indexed.add(KeyValue.of(entity.getKey()));
        } else {
            Value<?> value = lookup(entity, c.property());
            if (value == null) {
                return false;
            }
            if (value instanceof ListValue list && list.get().isEmpty()) {
                if (order.indexesEmptyArrayAsNull()) {
                    indexed.add(NullValue.of());
                }
            } else if (value instanceof ListValue list) {
                list.get().stream().filter(v -> !v.excludeFromIndexes()).forEach(indexed::add);
            } else if (!value.excludeFromIndexes()) {
                indexed.add(value);
            }
        }
        for (Value<?> v : indexed) {
            if (ValueOrder.comparable(v) && satisfies(c, v, order)) {
                return true;
            }
        }
        return false;
    }

    private static boolean satisfies(GqlQuery.Condition c, Value<?> v, ValueOrder order) {
        return switch (c.op()) {
            case EQUAL -> order.compare(v, c.value()) == 0;
            case LESS_THAN -> order.compare(v, c.value()) < 0;
            case LESS_THAN_OR_EQUAL -> order.compare(v, c.value()) <= 0;
            case GREATER_THAN -> order.compare(v, c.value()) > 0;
            case GREATER_THAN_OR_EQUAL -> order.compare(v, c.value()) >= 0;
            case NOT_EQUAL -> order.compare(v, c.value()) != 0;
            case IN -> c.values().stream().anyMatch(x -> order.compare(v, x) == 0);
            case NOT_IN -> c.values().stream().noneMatch(x -> order.compare(v, x) == 0);
            case HAS_ANCESTOR -> throw new IllegalStateException("HAS ANCESTOR is applied by the server");
        };
    }

    /** The value at a property path ({@code address.city} reads into an embedded entity), or null. */
    private static Value<?> lookup(BaseEntity<?> entity, String path) {
        if (entity.contains(path)) {
            return entity.getValue(path);
        }
        int dot = path.indexOf('.');
        if (dot < 0 || !entity.contains(path.substring(0, dot))) {
            return null;
        }
        Value<?> head = entity.getValue(path.substring(0, dot));
        if (head instanceof EntityValue embedded) {
            FullEntity<?> inner = embedded.get();
            return lookup(inner, path.substring(dot + 1));
        }
        return null;
    }
}
