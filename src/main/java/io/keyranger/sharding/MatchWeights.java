package io.keyranger.sharding;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The split of a filtered job whose scatter sample covers the whole kind (a filter and an order by {@code __scatter__}
 * need a composite index, which is seldom there): the sample says where the kind's entities are, not where the
 * matches are. The sample's gaps are grouped, about one group a shard; the matches in each group are counted at once
 * (a COUNT aggregation each, one round trip), each gap gets its group's matches shared among the group's gaps, and
 * the kind is cut at the samples where the matches reach each shard's share. A job whose matches crowd one end of the
 * kind (the first 10% of 200,000 entities) so starts with every range on matches, where cuts by the sample alone
 * left 58 of 64 ranges empty and the other six to split four levels deep.
 */
final class MatchWeights {
    /** Groups of sample gaps counted per shard asked. */
    static final int GROUPS_PER_SHARD = 1;

    private final KeyCounter counter;
    private final KeyOrder order;

    MatchWeights(KeyCounter counter, KeyOrder order) {
        this.counter = counter;
        this.order = order;
    }

    /** The bounds and the matches counted. */
    record Split(List<Key> bounds, long matches) {
    }

    /** Bounds (among {@code samples}, in key order) of {@code request.shards()} ranges of about equal matches. */
    Split split(PlanRequest request, List<Key> samples, Cancellation cancellation) {
        int groups = Math.min(request.shards() * GROUPS_PER_SHARD, samples.size() + 1);
        List<Key> groupBounds = ShardPlanner.evenlySpaced(samples, groups);
        List<KeyRange> groupRanges = ShardPlanner.rangesAt(order, groupBounds);
        List<PlannedRange> planned = new ArrayList<>(groupRanges.size());
        for (int i = 0; i < groupRanges.size(); i++) {
            planned.add(new PlannedRange(i, groupRanges.get(i), 0, 0, null));
        }
        ShardPlan counted = new RangeCounter(counter, planned.size()).countExactly(
                new ShardPlan(ShardPlan.Method.SCATTER, planned), request, (range, done, total) -> { }, cancellation);
        long[] matches = new long[planned.size()];
        long total = 0;
        for (int g = 0; g < matches.length; g++) {
            matches[g] = counted.ranges().get(g).size();
            total += matches[g];
        }
        if (total == 0) {
            return new Split(ShardPlanner.evenlySpaced(samples, request.shards()), 0);
        }
        // gap i runs from sample i-1 (the start of key space for i = 0) to sample i (its end for the last)
        int[] group = new int[samples.size() + 1];
        int[] gapsInGroup = new int[matches.length];
        int g = 0;
        for (int i = 0; i < group.length; i++) {
            if (i > 0 && g < groupBounds.size() && order.compare(samples.get(i - 1), groupBounds.get(g)) >= 0) {
                g++;
            }
            group[i] = g;
            gapsInGroup[g]++;
        }
        List<Key> bounds = new ArrayList<>(request.shards() - 1);
        double share = (double) total / request.shards();
        double reached = 0;
        int next = 1;
        for (int i = 0; i < samples.size() && next < request.shards(); i++) {
            reached += (double) matches[group[i]] / gapsInGroup[group[i]];
            if (reached >= next * share) {
                bounds.add(samples.get(i)); // gap i ends here
                while (next < request.shards() && reached >= next * share) {
                    next++; // a gap holding more than a share still ends one range: a run splits it
                }
            }
        }
        return new Split(bounds, total);
    }
}
