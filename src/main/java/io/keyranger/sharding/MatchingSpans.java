package io.keyranger.sharding;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a filtered request's entities lie when its scatter sample could not follow the filters. Production keeps no
 * index of a property together with {@code __scatter__}, so such a sample is of the whole kind, and ranges cut from
 * it follow the kind: where the matching entities crowd into a part of the key space (the recent ids, one tenant's
 * names), most ranges hold none and a few hold all, and a job starts on a few ranges that must split many times
 * before every worker has work. Here the sample is cut into the request's shards, every range is asked at once for
 * its first matching key (one keys-only query of one key each, answered from the property's built-in index), and
 * only the samples that can fall among matching entities are kept: those of the ranges holding a match, from that
 * first match on, which is kept too. A range the matches end in keeps its samples past the last match, so the kept
 * samples are probed once more in the same way.
 */
final class MatchingSpans {
    private MatchingSpans() {
    }

    /**
     * What probing left.
     *
     * @param samples the samples kept, in key order: empty when no range holds a match
     * @param ranges  the ranges of the whole kind's sample that were probed
     * @param empty   how many of them hold no matching entity
     */
    record Narrowed(List<Key> samples, int ranges, int empty) {
        Narrowed {
            samples = List.copyOf(samples);
        }

        /** The plan's note on what was probed and left out. */
        String note() {
            return "Sampled the whole kind: the composite index for the filters and __scatter__ is missing. "
                    + empty + " of the " + ranges + " ranges cut from that sample hold no entity matching the filters "
                    + "(one keys-only query each), so the ranges follow the other " + (ranges - empty) + ".";
        }
    }

    /** Rounds of probes at most: a second one cuts off the samples past the last match of a range the first kept. */
    static final int ROUNDS = 2;

    /**
     * Probes {@code samples} (the whole kind's, in key order) cut into {@code request}'s shards, and keeps those that
     * can fall among the entities the request selects; while a round finds a range without a match, and for
     * {@link #ROUNDS} rounds at most, probes the samples kept in the same way. The counts are the first round's.
     */
    static Narrowed narrow(ExactScan scan, KeyOrder order, PlanRequest request, List<Key> samples,
                           Cancellation cancellation) {
        Narrowed first = probe(scan, order, request, samples, cancellation);
        Narrowed last = first;
        for (int round = 1; round < ROUNDS && last.empty() > 0 && !last.samples().isEmpty(); round++) {
            last = probe(scan, order, request, last.samples(), cancellation);
        }
        return new Narrowed(last.samples(), first.ranges(), first.empty());
    }

    private static Narrowed probe(ExactScan scan, KeyOrder order, PlanRequest request, List<Key> samples,
                                  Cancellation cancellation) {
        List<Key> bounds = ShardPlanner.evenlySpaced(samples, request.shards());
        List<KeyRange> ranges = ShardPlanner.rangesAt(order, bounds);
        List<Key> firsts = scan.firstOfEach(request, ranges, cancellation);
        cancellation.check();
        List<Key> kept = new ArrayList<>(samples.size());
        int empty = 0;
        int next = 0;
        for (int i = 0; i < ranges.size(); i++) {
            KeyRange range = ranges.get(i);
            Key first = firsts.get(i);
            if (first == null) {
                empty++;
            } else {
                kept.add(first);
            }
            for (; next < samples.size() && range.contains(samples.get(next)); next++) {
                Key sample = samples.get(next);
                if (first != null && order.compare(sample, first) > 0) {
                    kept.add(sample);
                }
            }
        }
        return new Narrowed(kept, ranges.size(), empty);
    }
}
