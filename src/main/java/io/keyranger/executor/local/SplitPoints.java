package io.keyranger.executor.local;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.range.ProbeMemory;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeySplitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where KeyRanger cuts the rest of a range: at evenly spaced scatter samples of the job strictly after its first key
 * (the median for two pieces), else at the first key found past the key midpoint. Either way every piece holds data:
 * the first one the rest's first key, each other one its own first key, a sample or a probed key.
 */
public final class SplitPoints {
    /** Probes past a midpoint that found nothing before a range stops looking for a split point without samples. */
    public static final int MAX_EMPTY_PROBES = 3;

    private final List<Key> samples;
    private final KeyOrder order;
    private final boolean probes;

    /** Split points at {@code samples} (a job's cell bounds), probing past midpoints when none lies in a range. */
    public SplitPoints(List<Key> samples, KeyOrder order) {
        this(samples, order, true);
    }

    /**
     * As above; without {@code probes}, a range with no sample inside goes on linearly. A probed key lies inside a
     * cell, which the range split off there divides ({@code CellParts}: a transaction, and an abort of the commit in
     * flight before it): worth it only when the cells are too few for the workers (a kind with few or no scatter
     * samples).
     */
    public SplitPoints(List<Key> samples, KeyOrder order, boolean probes) {
        this.probes = probes;
        this.samples = samples.stream().sorted(order).toList();
        this.order = order;
    }


    /**
     * A job's split points: its cell bounds, and probes past midpoints only when its cells are fewer than twice its
     * workers (see the constructor).
     */
    public static SplitPoints forJob(CellPlan cells, int workers) {
        return new SplitPoints(cells.bounds(), cells.order(), cells.cells() < 2 * workers);
    }

    /**
     * Up to {@code pieces - 1} split points for {@code context}, in key order: evenly spaced samples strictly after the
     * rest's first key, else one probed key; none when neither a sample nor a probe finds one.
     */
    public List<Key> at(SplitPolicy.Context context, int pieces) {
        KeyRange rest = context.rest();
        List<Key> inside = quantilesInside(rest.advancePast(context.next()), pieces);
        ProbeMemory memory = context.memory();
        if (!inside.isEmpty() || !probes || memory.emptyProbes >= MAX_EMPTY_PROBES) {
            return inside;
        }
        // no sample to go by: probe past the midpoint of what is not known to be empty
        Key end = memory.emptyFrom != null ? memory.emptyFrom : rest.end();
        Optional<Key> midpoint = KeySplitter.midpoint(order, context.next(), end);
        if (midpoint.isEmpty()) {
            return List.of();
        }
        Optional<Key> found = context.probe().apply(KeyRange.of(order, midpoint.get(), rest.end()));
        if (found.isEmpty()) {
            memory.emptyFrom = midpoint.get(); // nothing from here to the end: look nearer next time
            memory.emptyProbes++;
        }
        return found.map(List::of).orElse(List.of());
    }

    /**
     * What a split gives away: {@code right}, the rest from the first split point on, cut at the further points, in
     * key order (the first piece starts at {@code points.get(0)}).
     */
    public static List<KeyRange> pieces(KeyRange right, List<Key> points) {
        List<KeyRange> pieces = new ArrayList<>();
        KeyRange rest = right;
        for (Key at : points.subList(1, points.size())) {
            KeyRange[] halves = rest.splitAt(at);
            pieces.add(halves[0]);
            rest = halves[1];
        }
        pieces.add(rest);
        return pieces;
    }

    /**
     * The samples strictly inside {@code range} that cut it into {@code pieces} parts of about equal sample counts
     * (fewer when fewer samples lie inside), in key order; for two pieces, the median.
     */
    public List<Key> quantilesInside(KeyRange range, int pieces) {
        int lo = range.start() == null ? 0 : bound(range.start(), true); // first sample > start
        int hi = range.end() == null ? samples.size() : bound(range.end(), false); // first sample >= end
        int inside = hi - lo;
        int cuts = Math.min(pieces - 1, inside);
        List<Key> out = new ArrayList<>(Math.max(0, cuts));
        for (int i = 1; i <= cuts; i++) {
            // for one cut, the median (index inside / 2); for more, distinct evenly spaced samples
            out.add(samples.get(lo + (int) ((long) i * inside / (cuts + 1))));
        }
        return out;
    }

    private int bound(Key key, boolean strictlyAfter) {
        int lo = 0;
        int hi = samples.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = order.compare(samples.get(mid), key);
            if (c < 0 || (strictlyAfter && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
