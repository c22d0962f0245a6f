package io.keyranger.executor;

/**
 * How ranges split after each page. KeyRanger ships {@link #SAMPLES}; the others exist so that benchmarks can
 * compare it, on the same exactly-once path, with what a user would otherwise run.
 */
public enum SplitPolicy {
    /**
     * Split the rest at the median scatter sample inside it, else at the first key past the key midpoint, whenever
     * no range is waiting for a worker; while some are, go on linearly, since a split costs a transaction and adds
     * nothing. Both halves of a split hold data; a range whose page ended it is finished, not split (KeyRanger).
     */
    SAMPLES,
    /** Split at the key midpoint after every page (the published adaptive sharding). */
    MIDPOINT,
    /** Never split: each planned range is processed linearly (fixed sharding, or one cursor loop). */
    NONE,
    /** Never split, and page with limit/offset instead of moving past the last key (the "Schlemiel" baseline). */
    OFFSET
}
