package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A job worked on by many runners at once (Apache Beam workers), in the same bookkeeping kinds as local jobs so that
 * {@code keyranger jobs} and the app list and follow it. Its key space is cut into fixed {@link CellPlan cells}; each
 * cell's {@code _KeyRangerRange} entity is the ledger its pages commit through ({@link CellCommitter}). There is no
 * lease: runners never need to exclude each other, because two commits of one key meet on the same cell entity and
 * the transaction lets only one apply.
 */
public final class SharedJob {
    /** The runner name stored on the job entity of jobs run on Apache Beam. */
    public static final String BEAM = "beam";
    /** Planned cells per starting range: the finest place a runner's dynamic split can cut without contention. */
    public static final int CELLS_PER_RANGE = 16;
    private static final int SAMPLES_PER_CELL = 8;
    private static final int PUT_BATCH = 400;

    private final Datastore datastore;
    private final JobSpec spec;
    private final CellPlan cells;
    private final long estimatedEntities;

    private SharedJob(Datastore datastore, JobSpec spec, CellPlan cells, long estimatedEntities) {
        this.datastore = datastore;
        this.spec = spec;
        this.cells = cells;
        this.estimatedEntities = estimatedEntities;
    }

    public JobSpec spec() {
        return spec;
    }

    public CellPlan cells() {
        return cells;
    }

    /** Entities the job is expected to read, from the scatter sample (for restriction sizes and progress). */
    public long estimatedEntities() {
        return estimatedEntities;
    }

    /**
     * Creates the job, or opens it again when a job with that id exists (a rerun after a killed pipeline): the cells
     * are then read back, never planned anew, so that the rerun commits through the same ledgers. A job with that id
     * that another runner started, or with another spec, is refused with a message saying why.
     */
    public static SharedJob createOrOpen(Datastore datastore, KeyOrder order, JobSpec spec, String runner,
                                         Cancellation cancellation) {
        spec = spec.bind(datastore.getOptions().getProjectId(), order);
        JobStore store = new JobStore(datastore);
        Entity existing = datastore.get(store.jobKey(spec.jobId()));
        if (existing != null) {
            String storedRunner = existing.contains("runner") ? existing.getString("runner") : "the local executor";
            if (!runner.equals(storedRunner)) {
                throw new KeyRangerException("Job " + spec.jobId() + " was started by " + storedRunner
                        + ", not " + runner + ": resume it there ('keyranger run --resume " + spec.jobId()
                        + "'), or give this run another --jobId.");
            }
            JobSpec stored = store.loadJob(spec.jobId()).spec();
            if (!stored.kind().equals(spec.kind()) || !stored.namespace().equals(spec.namespace())
                    || !stored.mapper().json().equals(spec.mapper().json())) {
                throw new KeyRangerException("Job " + spec.jobId() + " exists with another kind, namespace or "
                        + "mapper: a rerun must use the same spec, or give this run another --jobId.");
            }
            if (JobStore.isPlanned(existing)) {
                List<RangeNode> nodes = store.loadNodes(spec.jobId(), order, datastore);
                List<Key> bounds = new ArrayList<>();
                for (int i = 1; i < nodes.size(); i++) {
                    bounds.add(nodes.get(i).range.start());
                }
                datastore.put(Entity.newBuilder(existing).set("status", JobStatus.RUNNING.name()).build());
                return new SharedJob(datastore, spec, new CellPlan(order, bounds),
                        existing.contains("estimate") ? existing.getLong("estimate") : 0);
            }
        }
        ShardPlanner.RangePlan plan = new ShardPlanner(datastore, order).planRanges(new PlanRequest(spec.namespace(),
                spec.kind(), spec.mapper().where(), Math.min(PlanRequest.MAX_SHARDS, spec.shards() * CELLS_PER_RANGE),
                SAMPLES_PER_CELL), cancellation);
        List<Key> bounds = new ArrayList<>();
        for (KeyRange range : plan.ranges().subList(1, plan.ranges().size())) {
            bounds.add(range.start());
        }
        CellPlan cells = new CellPlan(order, bounds);
        long estimate = Math.round(plan.samples().size() * 10_000.0 / 78);
        Entity job = store.newJobEntity(spec, Instant.now()).set("runner", runner).set("estimate", estimate).build();
        datastore.put(job);
        ShardedCounter.open(datastore, AdaptiveSplitExecutor.counterName(spec.jobId()), Math.max(8, spec.workers()));
        List<Entity> batch = new ArrayList<>();
        for (int i = 0; i < cells.cells(); i++) {
            RangeNode node = new RangeNode(CellPlan.nodeId(i), null, 0, cells.cell(i));
            batch.add(store.nodeEntity(spec.jobId(), node));
            if (batch.size() == PUT_BATCH || i == cells.cells() - 1) {
                datastore.put(batch.toArray(new Entity[0]));
                batch.clear();
            }
        }
        datastore.put(Entity.newBuilder(job).set("planned", true).build());
        return new SharedJob(datastore, spec, cells, estimate);
    }

    /** The job's totals so far, from its sharded counters. */
    public Map<String, Long> totals() {
        return ShardedCounter.existing(datastore, AdaptiveSplitExecutor.counterName(spec.jobId())).totals();
    }

    /** How many cells are done (every key in them committed or found absent). */
    public int cellsDone() {
        return (int) new JobStore(datastore).loadNodes(spec.jobId(), cells.order(), datastore).stream()
                .filter(n -> n.status == NodeStatus.DONE).count();
    }

    /** Records how the run ended: DONE only when every cell is, FAILED otherwise. */
    public JobStatus finish(long wallMillis) {
        return finish(datastore, cells.order(), spec.jobId(), wallMillis);
    }

    /**
     * Records how a run of job {@code jobId} ended, from wherever it ran (the pipeline's last step on a worker, or the
     * launcher that waited for it): DONE only when every cell is, FAILED otherwise.
     */
    public static JobStatus finish(Datastore datastore, KeyOrder order, String jobId, long wallMillis) {
        JobStore store = new JobStore(datastore);
        List<RangeNode> nodes = store.loadNodes(jobId, order, datastore);
        boolean done = !nodes.isEmpty() && nodes.stream().allMatch(n -> n.status == NodeStatus.DONE);
        JobStatus status = done ? JobStatus.DONE : JobStatus.FAILED;
        Entity job = datastore.get(store.jobKey(jobId));
        datastore.put(Entity.newBuilder(job).set("status", status.name()).set("lastWallMillis", wallMillis)
                .set("finishedAt", com.google.cloud.Timestamp.now()).build());
        return status;
    }
}
