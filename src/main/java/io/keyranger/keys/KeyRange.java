package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.StructuredQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Objects;

/**
 * An immutable range of keys [start, end) in {@link KeyOrder}; a null start or end is open. After
 * {@link #advancePast(Key)} the start is exclusive: the range resumes strictly after the last key processed.
 */
public final class KeyRange {
    private final KeyOrder order;
    private final Key start;
    private final boolean startInclusive;
    private final Key end;

    private KeyRange(KeyOrder order, Key start, boolean startInclusive, Key end) {
        this.order = order;
        if (start != null && end != null && order.compare(start, end) > 0) {
            throw new IllegalArgumentException("range start " + KeyFormat.format(start) + " is after its end "
                    + KeyFormat.format(end));
        }
        this.start = start;
        this.startInclusive = startInclusive;
        this.end = end;
    }

    /** Every key, in the server's order. */
    public static KeyRange all(KeyOrder order) {
        return new KeyRange(order, null, true, null);
    }

    /** [start, end) in the server's order; either may be null for an open end. */
    public static KeyRange of(KeyOrder order, Key start, Key end) {
        return new KeyRange(order, start, true, end);
    }

    public KeyOrder order() {
        return order;
    }

    public Key start() {
        return start;
    }

    public boolean startInclusive() {
        return startInclusive;
    }

    public Key end() {
        return end;
    }

    public boolean contains(Key key) {
        if (start != null) {
            int c = order.compare(key, start);
            if (c < 0 || (c == 0 && !startInclusive)) {
                return false;
            }
        }
        return end == null || order.compare(key, end) < 0;
    }

    /** The rest of this range strictly after {@code lastProcessed}, which must lie in it. */
    public KeyRange advancePast(Key lastProcessed) {
        if (!contains(lastProcessed)) {
            throw new IllegalArgumentException(KeyFormat.format(lastProcessed) + " is not in " + this);
        }
        return new KeyRange(order, lastProcessed, false, end);
    }

    /**
     * The same range with its bounds given by {@code place} (into another partition, keeping their paths and so
     * their order).
     */
    public KeyRange placed(UnaryOperator<Key> place) {
        return new KeyRange(order, start == null ? null : place.apply(start), startInclusive,
                end == null ? null : place.apply(end));
    }

    /** The two halves [start, at) and [at, end); {@code at} must lie strictly inside. */
    public KeyRange[] splitAt(Key at) {
        if (!contains(at) || (start != null && order.compare(at, start) == 0)) {
            throw new IllegalArgumentException(KeyFormat.format(at) + " is not strictly inside " + this);
        }
        return new KeyRange[] {new KeyRange(order, start, startInclusive, at), new KeyRange(order, at, true, end)};
    }

    /** Whether no key can lie in it: its start is its end. */
    public boolean isEmpty() {
        return start != null && end != null && order.compare(start, end) == 0;
    }

    /** The {@code __key__} filters of this range combined with the user's equality filters; null when none. */
    public Filter filter(List<PropertyFilter> equalityFilters) {
        List<Filter> filters = new ArrayList<>(equalityFilters);
        if (start != null) {
            filters.add(startInclusive ? PropertyFilter.ge("__key__", start) : PropertyFilter.gt("__key__", start));
        }
        if (end != null) {
            filters.add(PropertyFilter.lt("__key__", end));
        }
        if (filters.isEmpty()) {
            return null;
        }
        if (filters.size() == 1) {
            return filters.get(0);
        }
        return CompositeFilter.and(filters.get(0), filters.subList(1, filters.size()).toArray(new Filter[0]));
    }

    /** Restricts a query to this range, in ascending key order. */
    public <B extends StructuredQuery.Builder<?>> B applyTo(B builder, List<PropertyFilter> equalityFilters) {
        Filter filter = filter(equalityFilters);
        if (filter != null) {
            builder.setFilter(filter);
        }
        builder.setOrderBy(OrderBy.asc("__key__"));
        return builder;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange other && order == other.order && startInclusive == other.startInclusive
                && Objects.equals(start, other.start) && Objects.equals(end, other.end);
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, startInclusive, end);
    }

    @Override
    public String toString() {
        return (start == null ? "(-∞" : (startInclusive ? "[" : "(") + KeyFormat.format(start)) + ", "
                + (end == null ? "+∞)" : KeyFormat.format(end) + ")");
    }
}
