package io.keyranger.sharding;

/**
 * How many entities a kind (with its filters) holds, and where the number comes from.
 *
 * @param total  the number
 * @param method its source
 */
public record TotalEstimate(long total, Method method) {
    /** Whether the number is the exact size. */
    public boolean exact() {
        return method == Method.COUNT || method == Method.EXACT_SCAN;
    }

    /** "20,000 entities (exact, by a keys-only scan)", or "about 17,504 entities (estimated from ...)". */
    public String describe() {
        return String.format("%s%,d entities (%s)", exact() ? "" : "about ", total, method.label());
    }

    /** Sources of a total, best first. */
    public enum Method {
        COUNT("exact, by a COUNT aggregation"),
        EXACT_SCAN("exact, by a keys-only scan"),
        STATISTICS("from __Stat_Kind__ statistics, which can be a day old"),
        SAMPLE_RATE("estimated from the scatter sample rate over the first keys"),
        /** Keys that stand for several entities each (a revert's undo records): their count times the first ones' mean. */
        PER_KEY("estimated from the entities the first keys hold");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
