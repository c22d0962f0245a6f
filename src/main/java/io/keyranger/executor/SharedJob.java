package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.keys.KeyOrder;
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

    private final Datastore datastore;
    private final JobSpec spec;
    private final CellPlan cells;
    private final long estimatedEntities;

    SharedJob(Datastore datastore, JobSpec spec, CellPlan cells, long estimatedEntities) {
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
     * that another runner started, or with another spec, is refused with a message saying why. Of several launches
     * with one new id, exactly one plans the cells ({@link SharedJobLaunch}).
     */
    public static SharedJob createOrOpen(Datastore datastore, KeyOrder order, JobSpec spec, String runner,
                                         Cancellation cancellation) {
        return SharedJobLaunch.createOrOpen(datastore, order, spec, runner, cancellation, CommitHook.NONE,
                SharedJobLaunch.PLANNING_STALE);
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
