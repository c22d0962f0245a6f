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
 * @param heapPeakKb        the most heap in use during the job above what was in use (after a GC) at its start,
 *                          sampled; -1 when not measured
 * @param heapRetainedKb    heap still in use (after a GC) at the job's end above its start; -1 when not measured
 * @param newcomersAdded    entities a writer added while the job ran (the growing shape), else 0
 * @param newcomersProcessed of those, how many the job processed (each at most once: it met them ahead of a cursor)
 * @param costs             writes, calls, CPU and the revert ({@link RunCosts#NONE} when not measured)
 */
public record BenchResult(String strategy, long entities, long wallMillis, double entitiesPerSecond, long reads,
                          long commits, int maxDepth, double tailShare, boolean verified, boolean extrapolated,
                          long heapPeakKb, long heapRetainedKb, long newcomersAdded, long newcomersProcessed,
                          RunCosts costs) {
    public BenchResult {
        costs = costs == null ? RunCosts.NONE : costs;
    }

    public BenchResult(String strategy, long entities, long wallMillis, double entitiesPerSecond, long reads,
                       long commits, int maxDepth, double tailShare, boolean verified, boolean extrapolated,
                       long heapPeakKb, long heapRetainedKb, long newcomersAdded, long newcomersProcessed) {
        this(strategy, entities, wallMillis, entitiesPerSecond, reads, commits, maxDepth, tailShare, verified,
                extrapolated, heapPeakKb, heapRetainedKb, newcomersAdded, newcomersProcessed, RunCosts.NONE);
    }

    public BenchResult(String strategy, long entities, long wallMillis, double entitiesPerSecond, long reads,
                       long commits, int maxDepth, double tailShare, boolean verified, boolean extrapolated,
                       long heapPeakKb, long heapRetainedKb) {
        this(strategy, entities, wallMillis, entitiesPerSecond, reads, commits, maxDepth, tailShare, verified,
                extrapolated, heapPeakKb, heapRetainedKb, 0, 0);
    }

    public BenchResult(String strategy, long entities, long wallMillis, double entitiesPerSecond, long reads,
                       long commits, int maxDepth, double tailShare, boolean verified, boolean extrapolated) {
        this(strategy, entities, wallMillis, entitiesPerSecond, reads, commits, maxDepth, tailShare, verified,
                extrapolated, -1, -1);
    }

    /** The same figures with these costs. */
    public BenchResult withCosts(RunCosts value) {
        return new BenchResult(strategy, entities, wallMillis, entitiesPerSecond, reads, commits, maxDepth, tailShare,
                verified, extrapolated, heapPeakKb, heapRetainedKb, newcomersAdded, newcomersProcessed, value);
    }

    /** The job verified, and its revert too when it had one: what the command's exit code says. */
    public boolean passed() {
        return verified && (costs.revert() == null || costs.revert().verified());
    }
}
