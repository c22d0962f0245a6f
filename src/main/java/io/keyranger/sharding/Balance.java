package io.keyranger.sharding;

import java.util.List;

/**
 * How evenly work is spread over ranges.
 *
 * @param maxOverMean the largest range divided by the mean (1.0 is perfect)
 * @param cv          the coefficient of variation: population standard deviation over mean
 */
public record Balance(double maxOverMean, double cv) {
    public static Balance of(List<Long> sizes) {
        if (sizes.isEmpty()) {
            return new Balance(Double.NaN, Double.NaN);
        }
        double mean = sizes.stream().mapToLong(Long::longValue).average().orElse(0);
        if (mean == 0) {
            return new Balance(Double.NaN, Double.NaN);
        }
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        double variance = sizes.stream().mapToDouble(s -> (s - mean) * (s - mean)).sum() / sizes.size();
        return new Balance(max / mean, Math.sqrt(variance) / mean);
    }
}
