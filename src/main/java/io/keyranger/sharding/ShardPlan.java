package io.keyranger.sharding;

import java.util.ArrayList;
import java.util.List;

/**
 * Ranges that cover a kind's key space exactly once, in key order, with their sizes.
 *
 * @param method how the boundaries were chosen
 * @param ranges the ranges, first to last; the first starts and the last ends open
 */
public record ShardPlan(Method method, List<PlannedRange> ranges) {
    /** How a plan's boundaries were chosen. */
    public enum Method {
        SCATTER("scatter sample"),
        EXACT_QUANTILES("exact keys-only scan (too few scatter samples)"),
        LEXICOGRAPHIC("lexicographic split between the first and last key");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public ShardPlan {
        ranges = List.copyOf(ranges);
    }

    public boolean hasExactCounts() {
        return !ranges.isEmpty() && ranges.stream().allMatch(r -> r.exact() != null);
    }

    /** Balance of the exact sizes when counted, of the estimates otherwise. */
    public Balance balance() {
        return Balance.of(ranges.stream().map(PlannedRange::size).toList());
    }

    /** The plan with {@code counted} in place of its range of the same index (one range's count, as it comes). */
    public ShardPlan withRange(PlannedRange counted) {
        List<PlannedRange> replaced = new ArrayList<>(ranges);
        replaced.replaceAll(r -> r.index() == counted.index() ? counted : r);
        return new ShardPlan(method, replaced);
    }

    /**
     * The plan with its estimates spread over {@code total} entities by each range's share of the samples: once
     * the total is known exactly, an estimate drawn from the sample rate's guess would no longer add up to it.
     */
    public ShardPlan estimatedFor(long total) {
        long sampled = ranges.stream().mapToLong(PlannedRange::samples).sum();
        if (sampled == 0) {
            return this;
        }
        List<PlannedRange> scaled = new ArrayList<>(ranges.size());
        for (PlannedRange r : ranges) {
            scaled.add(new PlannedRange(r.index(), r.range(), r.samples(),
                    Math.round((double) r.samples() * total / sampled), r.exact()));
        }
        return new ShardPlan(method, scaled);
    }

    public ShardPlan withExactCounts(List<Long> counts) {
        List<PlannedRange> counted = new ArrayList<>(ranges.size());
        for (int i = 0; i < ranges.size(); i++) {
            counted.add(ranges.get(i).withExact(counts.get(i)));
        }
        return new ShardPlan(method, counted);
    }
}
