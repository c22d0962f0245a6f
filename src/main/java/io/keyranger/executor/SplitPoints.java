package io.keyranger.executor;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeySplitter;
import java.util.List;
import java.util.Optional;

/**
 * Where KeyRanger cuts the rest of a range: at the median of the job's scatter samples strictly after its first key,
 * else at the first key found past the key midpoint. Either way both halves hold data: the left one the rest's first
 * key, the right one the split key itself.
 */
public final class SplitPoints {
    /** Probes past a midpoint that found nothing before a range stops looking for a split point without samples. */
    static final int MAX_EMPTY_PROBES = 3;

    private final List<Key> samples;
    private final KeyOrder order;

    SplitPoints(List<Key> samples, KeyOrder order) {
        this.samples = samples.stream().sorted(order).toList();
        this.order = order;
    }

    /** What a range's probes found empty: a key from which on nothing was found, and how many probes found nothing. */
    public static final class ProbeMemory {
        private Key emptyFrom;
        private int emptyProbes;
    }

    /** The split point for {@code context}, or empty when neither a sample nor a probe finds one. */
    Optional<Key> at(SplitPolicy.Context context) {
        KeyRange rest = context.rest();
        Optional<Key> sample = medianInside(rest.advancePast(context.next()));
        ProbeMemory memory = context.memory();
        if (sample.isPresent() || memory.emptyProbes >= MAX_EMPTY_PROBES) {
            return sample;
        }
        // no sample to go by: probe past the midpoint of what is not known to be empty
        Key end = memory.emptyFrom != null ? memory.emptyFrom : rest.end();
        Optional<Key> midpoint = KeySplitter.midpoint(order, context.next(), end);
        if (midpoint.isEmpty()) {
            return Optional.empty();
        }
        Optional<Key> found = context.probe().apply(KeyRange.of(order, midpoint.get(), rest.end()));
        if (found.isEmpty()) {
            memory.emptyFrom = midpoint.get(); // nothing from here to the end: look nearer next time
            memory.emptyProbes++;
        }
        return found;
    }

    /** The median of the samples strictly inside {@code range}. */
    Optional<Key> medianInside(KeyRange range) {
        int lo = range.start() == null ? 0 : bound(range.start(), true); // first sample > start
        int hi = range.end() == null ? samples.size() : bound(range.end(), false); // first sample >= end
        return hi - lo < 1 ? Optional.empty() : Optional.of(samples.get(lo + (hi - lo) / 2));
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
