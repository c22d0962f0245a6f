package io.keyranger.sharding;

/**
 * How many entities a kind (with its filters) holds, and where the number comes from.
 *
 * @param total  the number
 * @param method its source
 */
public record TotalEstimate(long total, Method method) {
    /** Sources of a total, best first. */
    public enum Method {
        COUNT("COUNT aggregation (exact)"),
        EXACT_SCAN("keys-only scan (exact)"),
        STATISTICS("__Stat_Kind__ statistics (can be a day old)"),
        SAMPLE_RATE("estimated from the scatter sample rate over the first keys");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
