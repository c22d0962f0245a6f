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

    /**
     * With counted plans; when every range of the scatter plan was counted, their sum is the exact total, and both
     * plans' estimates are spread over it (an estimate column that adds up to the sample rate's guess, beside an
     * exact total, says two sizes for one kind).
     */
    public ShardPreview withPlans(ShardPlan newScatter, ShardPlan newLexicographic) {
        if (!newScatter.hasExactCounts() || total.exact()) {
            return new ShardPreview(request, newScatter, newLexicographic, total, samples, notes, sampleKeys);
        }
        long exact = newScatter.ranges().stream().mapToLong(PlannedRange::exact).sum();
        return new ShardPreview(request, newScatter.estimatedFor(exact), newLexicographic.estimatedFor(exact),
                new TotalEstimate(exact, TotalEstimate.Method.EXACT_SCAN), samples, notes, sampleKeys);
    }
}
