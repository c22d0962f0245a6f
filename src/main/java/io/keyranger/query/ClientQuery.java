package io.keyranger.query;

import java.util.function.UnaryOperator;
import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyPaths;
import java.util.Comparator;
import java.util.List;

/**
 * A GQL query applied on the client, to entities that no index holds (those of a managed export): every condition,
 * HAS ANCESTOR and equality included, is decided the way the server's index decides it ({@link JobQuery#holds}),
 * and ORDER BY sorts in Datastore's value order. Nothing narrows the entities read: every one is tested.
 */
public record ClientQuery(GqlQuery query, KeyOrder order) {
    /**
     * {@code gql} as it narrows the entities of {@code kind} in {@code project} and {@code namespace}, applied in
     * {@code order}; null when no query was given. A query of another kind is refused, and so is a clause that
     * selects fewer entities or parts of them (LIMIT, OFFSET, ORDER BY, DISTINCT, a projection:
     * {@link JobQuery#requireWholeSelection}).
     */
    public static ClientQuery selecting(String gql, String project, String namespace, String kind, KeyOrder order) {
        if (gql == null) {
            return null;
        }
        GqlQuery query = Gql.parse(gql, project, namespace);
        JobQuery.requireWholeSelection(query); // a restore or a diff selects whole entities, every one that matches
        if (!query.kind().equals(kind)) {
            throw new KeyRangerException("The query selects " + query.kind() + ", but the kind is "
                    + kind + ": write SELECT * FROM " + kind + " WHERE ...");
        }
        return new ClientQuery(query, order);
    }

    /**
     * This query over the entities of {@code kind}, its key literals (in {@code __key__} conditions, HAS ANCESTOR and
     * key values) given by {@code keys}: a copy's selection, written in the source's names, decided on its entities as
     * the copy writes them under another kind's name ({@code --to-kind}).
     */
    public ClientQuery renamed(String kind, UnaryOperator<Key> keys) {
        List<GqlQuery.Condition> conditions = query.conditions().stream().map(c -> new GqlQuery.Condition(
                c.property(), c.op(), c.values().stream().<Value<?>>map(v -> v instanceof KeyValue key
                        ? KeyValue.of(keys.apply(key.get())) : v).toList(), c.text())).toList();
        return new ClientQuery(new GqlQuery(query.text(), kind, query.keysOnly(), query.projection(),
                query.distinct(), conditions, query.orders(), query.limit(), query.offset()), order);
    }

    /** Whether {@code entity} is of the query's kind and meets every condition. */
    public boolean matches(BaseEntity<Key> entity) {
        if (!entity.getKey().getKind().equals(query.kind())) {
            return false;
        }
        ValueOrder values = new ValueOrder(order);
        for (GqlQuery.Condition c : query.conditions()) {
            boolean holds = c.op() == GqlQuery.Op.HAS_ANCESTOR ? hasAncestor(entity.getKey(), (Key) c.value().get())
                    : JobQuery.holds(c, entity, values);
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    /** Whether the query sorts on anything but the file order of the export. */
    public boolean sorts() {
        return !query.orders().isEmpty();
    }

    /**
     * The query's ORDER BY as a comparator; an entity lacking a property sorts first, as null does. Equal entities
     * keep their order (the sort is stable).
     */
    public Comparator<BaseEntity<Key>> comparator() {
        ValueOrder values = new ValueOrder(order);
        Comparator<BaseEntity<Key>> all = (a, b) -> 0;
        for (GqlQuery.Order o : query.orders()) {
            Comparator<BaseEntity<Key>> one = (a, b) -> values.compare(sortValue(a, o.property()),
                    sortValue(b, o.property()));
            all = all.thenComparing(o.descending() ? one.reversed() : one);
        }
        return all;
    }

    private static Value<?> sortValue(BaseEntity<Key> entity, String property) {
        if (property.equals("__key__")) {
            return KeyValue.of(entity.getKey());
        }
        return entity.contains(property) ? entity.getValue(property) : NullValue.of();
    }

    /** The key is a descendant of {@code ancestor} (or the ancestor itself), in its namespace. */
    static boolean hasAncestor(Key key, Key ancestor) {
        if (!key.getNamespace().equals(ancestor.getNamespace())) {
            return false;
        }
        List<PathElement> path = KeyPaths.path(key);
        List<PathElement> prefix = KeyPaths.path(ancestor);
        return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }
}
