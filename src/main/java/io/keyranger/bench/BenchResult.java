package io.keyranger.bench;

/**
 * One strategy's figures.
 *
 * @param strategy          the strategy
 * @param entities          entities processed (for offset: the capped count actually run)
 * @param wallMillis        wall time (for offset: extrapolated to the full size)
 * @param entitiesPerSecond entities over wall time
 * @param reads             query, get and fetch calls
 * @param commits           commit calls
 * @param maxDepth          the deepest range node
 * @param tailShare         share of wall time spent on the last 5% of entities
 * @param verified          every entity incremented exactly once, checked afterwards
 * @param extrapolated      whether wallMillis is extrapolated from a smaller run
 */
public record BenchResult(String strategy, long entities, long wallMillis, double entitiesPerSecond, long reads,
                          long commits, int maxDepth, double tailShare, boolean verified, boolean extrapolated) {
}
