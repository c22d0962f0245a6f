package io.keyranger.sim;

/**
 * One strategy's figures in a simulated run.
 *
 * @param strategy      the strategy
 * @param entities      entities the job selects (each processed exactly once: checked by the simulation)
 * @param workers       the concurrency cap
 * @param wallNanos     virtual wall time, from the job's start (planning included) to its recorded end
 * @param calls         calls to the server, as the model server counts them
 * @param splits        splits made
 * @param ranges        ranges worked on (planned ones and every piece of a split)
 * @param maxDepth      the deepest range in the split tree
 * @param tailShare     share of the wall time spent on the last 5% of entities
 * @param runtimeMillis real time the simulation took
 */
public record SimResult(String strategy, long entities, int workers, long wallNanos, long calls, long splits,
                        long ranges, int maxDepth, double tailShare, long runtimeMillis) {
    public double wallSeconds() {
        return wallNanos / 1e9;
    }
}
