package io.keyranger.sharding;

import com.google.cloud.datastore.Key;
import java.util.List;

/**
 * A scatter-sampled plan beside a naive lexicographic plan of the same shard count, for comparison.
 *
 * @param request       what was asked for
 * @param scatter       KeyRanger's plan (scatter sample, or exact quantiles for small kinds)
 * @param lexicographic the naive plan, for comparison
 * @param total         the kind's size and its source
 * @param samples       how many scatter samples were read
 * @param notes         what the user should know: fallbacks, fewer ranges than asked, filters not sampled
 * @param sampleKeys    the scatter samples in key order, which the executor reuses to pick split points
 */
public record ShardPreview(PlanRequest request, ShardPlan scatter, ShardPlan lexicographic, TotalEstimate total,
                           int samples, List<String> notes, List<Key> sampleKeys) {
    public ShardPreview {
        notes = List.copyOf(notes);
        sampleKeys = List.copyOf(sampleKeys);
    }

    /** With counted plans; when every range of the scatter plan was counted, their sum is the exact total. */
    public ShardPreview withPlans(ShardPlan newScatter, ShardPlan newLexicographic) {
        boolean counted = !newScatter.ranges().isEmpty() && newScatter.ranges().stream().allMatch(r -> r.exact() != null);
        TotalEstimate newTotal = counted && !total.exact() ? new TotalEstimate(newScatter.ranges().stream()
                .mapToLong(PlannedRange::exact).sum(), TotalEstimate.Method.EXACT_SCAN) : total;
        return new ShardPreview(request, newScatter, newLexicographic, newTotal, samples, notes, sampleKeys);
    }
}
