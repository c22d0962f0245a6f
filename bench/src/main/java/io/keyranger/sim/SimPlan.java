package io.keyranger.sim;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.bench.Baselines;
import io.keyranger.executor.local.SplitPoints;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.ExactScan;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A strategy's plan, made as the executor (or the bench, for its baselines) makes it, with the planner's own code: the
 * starting ranges, the job's split points (its cells) and policy, and what planning costs in calls.
 *
 * @param starts        the ranges the job starts from
 * @param splitPoints   the job's split points
 * @param policy        its split policy
 * @param calls         calls made one after another before the job can start
 * @param parallelCalls calls made alongside those (an exact scan's ranges at once)
 */
record SimPlan(List<KeyRange> starts, SplitPoints splitPoints, SplitPolicy policy, int calls, long parallelCalls) {
    /** Results a query returns per call (production's and the model's batch). */
    static final int BATCH = 1_000;
    /** appengine-mapreduce's and Beam's scatter keys per split, as the bench's fixed baseline plans. */
    static final int FIXED_OVERSAMPLE = 32;
    private static final KeyOrder ORDER = KeyOrder.PRODUCTION;

    static SimPlan of(KeySpace space, SimStrategy strategy, int workers, SplittableRandom random) {
        List<KeyRange> starts = new ArrayList<>();
        if (strategy == SimStrategy.ORACLE) { // every key known before the clock starts, cut into equal chunks
            starts.addAll(Baselines.equalChunks(ORDER, space::key, space.selected(), workers));
            return new SimPlan(starts, SplitPoints.forJob(JobPlans.plan(ORDER, starts, List.of()).cells(), workers),
                    Baselines.NONE, 0, 0);
        }
        int shards = workers;
        int oversample = strategy == SimStrategy.FIXED ? FIXED_OVERSAMPLE : PlanRequest.DEFAULT_OVERSAMPLE;
        List<Key> samples = space.scatterSample(new PlanRequest("", "Sim", List.of(), shards, oversample).sampleLimit(),
                random);
        // a filter with an order by __scatter__ is refused (no composite index): one call, then the whole kind
        int calls = (space.selected() < space.size() ? 1 : 0) + Math.max(1, Simulation.ceil(samples.size(), BATCH));
        long parallelCalls = 0;
        List<Key> bounds;
        if (ShardPlanner.tooFewSamples(samples.size(), shards)) {
            if (space.selected() > ShardPlanner.EXACT_SCAN_LIMIT) {
                throw new KeyRangerException("Only " + samples.size() + " scatter samples for "
                        + shards + " shards, but more than " + ShardPlanner.EXACT_SCAN_LIMIT + " entities.");
            }
            // the planner's exact scan: the ranges between the samples, many at once
            int rangesToScan = samples.size() + 1;
            int perRange = Math.max(1, Simulation.ceil(Simulation.ceil(space.selected(), rangesToScan), BATCH));
            int rounds = Simulation.ceil(rangesToScan, ExactScan.parallelism(shards, rangesToScan)) * perRange;
            calls += rounds;
            parallelCalls = (long) rangesToScan * perRange - rounds;
            bounds = ShardPlanner.evenlySpaced(space.selectedKeys(), shards);
        } else {
            bounds = ShardPlanner.evenlySpaced(samples, shards);
        }
        starts.addAll(ShardPlanner.rangesAt(ORDER, bounds));
        SplitPoints splitPoints = SplitPoints.forJob(JobPlans.plan(ORDER, starts, samples).cells(), workers);
        return new SimPlan(starts, splitPoints, strategy == SimStrategy.ADAPTIVE ? SplitPolicy.ADAPTIVE : Baselines.NONE,
                calls, parallelCalls);
    }
}
