package io.keyranger.datastore;

/**
 * How many entities a kind holds, and how that number was obtained.
 *
 * @param count  the exact number of entities
 * @param method which query produced it
 */
public record EntityCount(long count, Method method) {
    /** The query that produced a count. */
    public enum Method {
        AGGREGATION("COUNT aggregation"),
        KEYS_ONLY_SCAN("keys-only scan (server has no COUNT)");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
