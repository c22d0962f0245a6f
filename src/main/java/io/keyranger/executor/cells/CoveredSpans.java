package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The parts of a cell's key space that committed pages have covered, as disjoint {@link KeyRange}s in key order.
 * A page covers the key space from where its query started to just before the next key it did not take, so the spans
 * of consecutive pages touch and merge: a cell worked through by one range holds one span, and one per range working
 * in it at once. A key in a span was processed (or did not exist when its page was read): its effect is never applied
 * again, whichever restriction, retry or runner comes back to it.
 */
public final class CoveredSpans {
    private static final String OPEN = "";
    private final KeyOrder order;
    private final List<KeyRange> spans = new ArrayList<>();

    public CoveredSpans(KeyOrder order) {
        this.order = order;
    }

    /** The spans as stored: one string per span, "[" or "(" for the start's inclusivity, start and end url-safe. */
    public static CoveredSpans decode(KeyOrder order, List<String> stored) {
        CoveredSpans spans = new CoveredSpans(order);
        for (String s : stored) {
            String[] parts = s.split(" ", -1);
            if (parts.length != 3) {
                throw new IllegalArgumentException("Not a stored span: " + s);
            }
            Key start = parts[1].equals(OPEN) ? null : Key.fromUrlSafe(parts[1]);
            Key end = parts[2].equals(OPEN) ? null : Key.fromUrlSafe(parts[2]);
            KeyRange range = KeyRange.of(order, start, end);
            if (start != null && parts[0].equals("(")) {
                range = KeyRange.of(order, null, end).advancePast(start);
            }
            spans.add(range);
        }
        return spans;
    }

    public List<String> encode() {
        List<String> out = new ArrayList<>(spans.size());
        for (KeyRange span : spans) {
            out.add((span.startInclusive() ? "[" : "(") + " " + (span.start() == null ? OPEN : span.start().toUrlSafe())
                    + " " + (span.end() == null ? OPEN : span.end().toUrlSafe()));
        }
        return out;
    }

    public List<KeyRange> spans() {
        return List.copyOf(spans);
    }

    /** Whether {@code key} lies in a span. */
    public boolean covers(Key key) {
        for (KeyRange span : spans) {
            if (span.contains(key)) {
                return true;
            }
        }
        return false;
    }

    /** Whether one span holds all of {@code range}. */
    public boolean coversAll(KeyRange range) {
        for (KeyRange span : spans) {
            if (startsAtOrBefore(span, range) && endsAtOrAfter(span, range)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The span that holds the start of {@code range} (its first possible key), if any: where a range can skip to
     * without reading the keys in between.
     */
    public KeyRange spanAtStart(KeyRange range) {
        for (KeyRange span : spans) {
            if (startsAtOrBefore(span, range) && !endsAtOrBefore(span, range.start())) {
                return span;
            }
        }
        return null;
    }

    /** Adds {@code span}, merging it with the spans it overlaps or touches. */
    public void add(KeyRange span) {
        if (span.isEmpty()) {
            return;
        }
        spans.add(span);
        spans.sort(Comparator.comparing(KeyRange::start, Comparator.nullsFirst(order))
                .thenComparing(r -> !r.startInclusive()));
        List<KeyRange> merged = new ArrayList<>(spans.size());
        KeyRange current = null;
        for (KeyRange next : spans) {
            if (current == null) {
                current = next;
            } else if (touches(current, next)) {
                Key end = current.end() == null || next.end() == null ? null
                        : order.compare(current.end(), next.end()) >= 0 ? current.end() : next.end();
                current = withEnd(current, end);
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        spans.clear();
        spans.addAll(merged);
    }

    /** The parts of the spans inside {@code range}, as spans of their own (what a divided cell's part holds). */
    public CoveredSpans within(KeyRange range) {
        CoveredSpans inside = new CoveredSpans(order);
        for (KeyRange span : spans) {
            KeyRange later = startsAtOrBefore(span, range) ? range : span;
            Key end = span.end() == null ? range.end() : range.end() == null ? span.end()
                    : order.compare(span.end(), range.end()) <= 0 ? span.end() : range.end();
            if (later.start() != null && end != null && order.compare(later.start(), end) >= 0) {
                continue;
            }
            inside.add(later.startInclusive() || later.start() == null ? KeyRange.of(order, later.start(), end)
                    : KeyRange.of(order, null, end).advancePast(later.start()));
        }
        return inside;
    }

    /**
     * Whether a span holds the key space just before {@code position}: whatever worked up to it is done there (a
     * range that starts at it was not split off one still working before it).
     */
    public boolean coversJustBefore(Key position) {
        for (KeyRange span : spans) {
            boolean before = span.start() == null || order.compare(span.start(), position) < 0;
            if (before && (span.end() == null || order.compare(span.end(), position) >= 0)) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return spans.size();
    }

    /** {@code b} starts where {@code a} ends or before: no key lies between them. */
    private boolean touches(KeyRange a, KeyRange b) {
        if (a.end() == null || b.start() == null) {
            return true;
        }
        int c = order.compare(b.start(), a.end());
        return c < 0 || (c == 0 && b.startInclusive());
    }

    private boolean startsAtOrBefore(KeyRange span, KeyRange range) {
        if (span.start() == null) {
            return true;
        }
        if (range.start() == null) {
            return false;
        }
        int c = order.compare(span.start(), range.start());
        return c < 0 || (c == 0 && (span.startInclusive() || !range.startInclusive()));
    }

    private boolean endsAtOrAfter(KeyRange span, KeyRange range) {
        if (span.end() == null) {
            return true;
        }
        return range.end() != null && order.compare(span.end(), range.end()) >= 0;
    }

    /** Whether the span ends at or before {@code position} (so holds nothing from there on). */
    private boolean endsAtOrBefore(KeyRange span, Key position) {
        return span.end() != null && position != null && order.compare(span.end(), position) <= 0;
    }

    private KeyRange withEnd(KeyRange range, Key end) {
        KeyRange widened = KeyRange.of(order, range.start(), end);
        return range.startInclusive() || range.start() == null ? widened
                : KeyRange.of(order, null, end).advancePast(range.start());
    }

    @Override
    public String toString() {
        return spans.toString();
    }
}
