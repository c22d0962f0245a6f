package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A distributed job's key space cut into fixed cells at scatter-sampled keys, fixed when the job is created and kept
 * for its life (a rerun reads them back): each cell's {@code _KeyRangerRange} entity is the ledger that every page
 * committed in it goes through, whatever restriction, bundle or runner commits it. Cell {@code i} is
 * [bounds[i-1], bounds[i]); the first starts open, the last ends open.
 */
public final class CellPlan {
    /**
     * Most cells a job has: one per scatter sample up to this, so that a thousand workers still find split points
     * (a bound every 4th sample at 4,000 cells left them splitting at most a few times each, and a billion-entity job
     * at 0.78x its oracle in the simulation; 0.91-0.96x with a cell per sample).
     */
    public static final int MAX_CELLS = 65_536;

    private final KeyOrder order;
    private final List<Key> bounds;

    public CellPlan(KeyOrder order, List<Key> bounds) {
        this.order = order;
        this.bounds = List.copyOf(bounds);
        for (int i = 1; i < this.bounds.size(); i++) {
            if (order.compare(this.bounds.get(i - 1), this.bounds.get(i)) >= 0) {
                throw new IllegalArgumentException("Cell bounds must be strictly increasing");
            }
        }
    }

    public KeyOrder order() {
        return order;
    }

    public List<Key> bounds() {
        return bounds;
    }

    public int cells() {
        return bounds.size() + 1;
    }

    /** The cell holding {@code key}; null (the open start) is in cell 0. */
    public int cellOf(Key key) {
        if (key == null) {
            return 0;
        }
        int i = Collections.binarySearch(bounds, key, order);
        return i >= 0 ? i + 1 : -i - 1;
    }

    public KeyRange cell(int i) {
        return KeyRange.of(order, i == 0 ? null : bounds.get(i - 1), i == bounds.size() ? null : bounds.get(i));
    }

    /** The cell's node id, as its ledger entity and {@code keyranger jobs} name it. */
    public static String nodeId(int i) {
        String digits = Integer.toString(i); // not String.format: a commit names a cell for each key it keeps undo of
        return digits.length() >= 4 ? "c" + digits : "c" + "000".substring(digits.length() - 1) + digits;
    }

    /** The ranges a job starts from: {@code shards} runs of whole cells, as even in cell count as they can be. */
    public List<KeyRange> startingRanges(int shards) {
        int n = Math.max(1, Math.min(shards, cells()));
        List<KeyRange> ranges = new ArrayList<>(n);
        Key start = null;
        for (int s = 1; s <= n; s++) {
            int cellEnd = (int) ((long) s * cells() / n); // cells [.., cellEnd)
            Key end = cellEnd >= cells() ? null : bounds.get(cellEnd - 1);
            ranges.add(KeyRange.of(order, start, end));
            start = end;
        }
        return ranges;
    }

    /** Cell bounds strictly inside {@code range} and strictly after {@code after} (null: from the range's start). */
    public List<Key> boundsInside(KeyRange range, Key after) {
        List<Key> inside = new ArrayList<>();
        for (Key b : bounds) {
            boolean afterStart = range.start() == null || order.compare(b, range.start()) > 0;
            boolean afterKey = after == null || order.compare(b, after) > 0;
            if (afterStart && afterKey && range.contains(b)) {
                inside.add(b);
            }
        }
        return inside;
    }

    /** The cells {@code span} touches, in order (at least one). */
    public List<Integer> cellsOf(KeyRange span) {
        int first = cellOf(span.start());
        int last = cells() - 1;
        if (span.end() != null) {
            int i = Collections.binarySearch(bounds, span.end(), order);
            last = i >= 0 ? i : -i - 1;
        }
        List<Integer> out = new ArrayList<>();
        for (int c = first; c <= Math.max(first, last); c++) {
            out.add(c);
        }
        return out;
    }

    /** The part of {@code span} in cell {@code cell}. */
    public KeyRange intersect(KeyRange span, int cell) {
        KeyRange c = cell(cell);
        Key end = span.end() == null ? c.end() : c.end() == null ? span.end()
                : order.compare(span.end(), c.end()) <= 0 ? span.end() : c.end();
        boolean spanStartsLater = span.start() != null && (c.start() == null || order.compare(span.start(), c.start()) >= 0);
        if (!spanStartsLater) {
            return KeyRange.of(order, c.start(), end);
        }
        if (end != null && order.compare(span.start(), end) >= 0) {
            return KeyRange.of(order, end, end); // empty
        }
        return span.startInclusive() ? KeyRange.of(order, span.start(), end)
                : KeyRange.of(order, null, end).advancePast(span.start());
    }

    /** How many cells {@code range} touches (at least 1). */
    public int cellsIn(KeyRange range) {
        int first = cellOf(range.start());
        int last = range.end() == null ? cells() - 1 : Math.max(first, cellOf(range.end()) - 1);
        return last - first + 1;
    }
}
