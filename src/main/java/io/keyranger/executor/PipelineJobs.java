package io.keyranger.executor;

import io.keyranger.executor.source.DatabaseRun;
import io.keyranger.KeyRangerException;
import io.keyranger.job.LeaseMode;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RetryPolicy;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.executor.source.InputRun;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.executor.store.JobStore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.sharding.PlanRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job launched on a pipeline (Beam), as its launcher sees it: the same job, plan and ledgers as a local run's, so
 * either runner can go on with a job the other started ({@link JobPlans}). The launcher holds the job's lease while it waits for its pipeline (a
 * courtesy: one runner at a time), renewing it; the pipeline's workers commit through the ledgers and need no lease.
 */
public final class PipelineJobs {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineJobs.class);
    /** The runner name Beam launches record on the jobs they work on. */
    public static final String BEAM = "beam";

    private final Datastore datastore;
    private final JobSpec spec;
    private final CellPlan cells;
    private final long estimatedEntities;
    private final JobLease lease;
    private final boolean doneAlready;
    private final boolean planned;
    private final ScheduledExecutorService renewals;

    private PipelineJobs(Datastore datastore, JobSpec spec, JobPlans.Stored plan, JobLease lease, boolean doneAlready,
                           boolean planned) {
        this.datastore = datastore;
        this.planned = planned;
        this.spec = spec;
        this.cells = plan.cells();
        this.estimatedEntities = plan.estimate();
        this.lease = lease;
        this.doneAlready = doneAlready;
        this.renewals = doneAlready ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "keyranger-lease-" + spec.jobId());
            thread.setDaemon(true);
            return thread;
        });
        if (renewals != null) {
            long every = Math.max(100, lease.duration().toMillis() / 3);
            renewals.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        }
    }

    public JobSpec spec() {
        return spec;
    }

    public CellPlan cells() {
        return cells;
    }

    /**
     * Entities the job is expected to read, from the scatter sample or (a job that reads a file) its input's check (for
     * restriction sizes and progress).
     */
    public long estimatedEntities() {
        return estimatedEntities;
    }

    /** Whether the job was done before this launch: nothing is left to run. */
    public boolean doneAlready() {
        return doneAlready;
    }

    /**
     * Whether this launch planned the job (it did not exist when it looked): nothing is committed but what its pipeline
     * commits, so its workers need not read a cell's ledger to skip finished work, as a local job's first run reads
     * none (a hint only: each commit checks its ledger, so a runner that created the same job a moment before costs
     * work, never exactness).
     */
    public boolean planned() {
        return planned;
    }

    /** {@link #open} without taking the job from a live runner. */
    public static PipelineJobs createOrOpen(Datastore datastore, KeyOrder order, JobSpec spec, String runner,
                                         Cancellation cancellation) {
        return open(datastore, order, spec, runner, false, cancellation);
    }

    /**
     * Creates the job (its plan and lease in one transaction), or takes the job stored under its id, whichever runner
     * started it: refused while another runner holds a live lease, unless {@code takeOver} (that runner stops at its
     * next renewal; anything it still commits is applied once). A job with that id and another spec is refused.
     */
    public static PipelineJobs open(Datastore datastore, KeyOrder order, JobSpec spec, String runner, boolean takeOver,
                                 Cancellation cancellation) {
        return open(datastore, LocalFileStore.INSTANCE, order, spec, runner, takeOver, cancellation,
                message -> LOG.warn("{}", message));
    }

    /**
     * As above; the job is planned as a local run plans it ({@link InputRun#plan}), after its input was checked as a
     * local run checks it ({@link Engine#checked}, whose warnings {@code warnings} hears): an import's or a restore's
     * found to be the one a job of its id was started on (else refused, nothing written). The input is read through
     * {@code files}.
     */
    public static PipelineJobs open(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, String runner,
                                 boolean takeOver, Cancellation cancellation,
                                 Consumer<String> warnings) {
        JobStore store = new JobStore(datastore);
        if (InputRun.of(spec).order(order) != order) {
            throw new KeyRangerException("Job " + spec.jobId() + " copies from a server that orders key names apart "
                    + "from this one (the legacy Datastore emulator in UTF-16, the others in UTF-8): the Beam runner "
                    + "cuts ranges in one order. Run it on this machine (keyranger restore, or run --resume "
                    + spec.jobId() + "); nothing was written.");
        }
        String masking = DatabaseRun.masking(spec);
        if (masking != null) {
            throw new KeyRangerException("Job " + spec.jobId() + "'s transform: " + masking + ", which reads the "
                    + "masking key from the environment of the machine that runs it, and Beam's workers have their "
                    + "own: run it on this machine (keyranger restore); nothing was written.");
        }
        JobSpec checked = Engine.checked(datastore, files, order, RetryPolicy.DEFAULT, spec, warnings);
        InputRun input = InputRun.of(checked);
        JobSpec bound = checked.bind(datastore.getOptions().getProjectId(), order);
        JobLease lease = store.lease(bound.jobId(), JobLease.DEFAULT_DURATION);
        boolean[] planned = {false};
        String counter = JobSpec.counterName(bound.jobId());
        int counterShards = Math.max(8, bound.workers());
        JobPlans.Stored plan = JobPlans.take(store, order, lease, takeOver ? LeaseMode.TAKE_OVER_NOW
                : LeaseMode.RESUME, bound, runner, () -> {
                    planned[0] = true;
                    return JobPlans.plan(order, bound, input.plan(datastore, files, order, bound, new PlanRequest(
                            bound.namespace(), bound.kind(), bound.mapper().where(), bound.shards(),
                            PlanRequest.DEFAULT_OVERSAMPLE), cancellation));
                }, List.of(ShardedCounter.created(datastore, counter, counterShards)), message -> { });
        if (plan == null) {
            return new PipelineJobs(datastore, bound, RetryPolicy.DEFAULT.call(() -> store.loadPlan(bound.jobId(), order)),
                    lease, true, false);
        }
        if (!lease.createdIt()) { // created with the job otherwise
            RetryPolicy.DEFAULT.call(() -> ShardedCounter.open(datastore, counter, counterShards));
        }
        return new PipelineJobs(datastore, bound, plan, lease, false, planned[0]);
    }

    private void renew() {
        try {
            lease.renew();
        } catch (JobFencedException e) {
            LOG.warn("{} The pipeline goes on; its commits stay exact.", e.getMessage());
            renewals.shutdown();
        } catch (RuntimeException e) {
            LOG.warn("Could not renew the lease of job {}: {}", spec.jobId(), e.toString());
        }
    }

    /** The job's totals so far, from its sharded counters. */
    public Map<String, Long> totals() {
        return ShardedCounter.existing(datastore, JobSpec.counterName(spec.jobId())).totals();
    }

    /** How many cells are done (every key in them committed or found absent). */
    public int cellsDone() {
        return (int) new JobStore(datastore).loadNodes(spec.jobId(), cells.order(), datastore).stream()
                .filter(n -> n.status() == NodeStatus.DONE).count();
    }

    /**
     * The launcher leaves the pipeline to run on its own (a launch that does not wait for it): it stops renewing the
     * lease, which runs out, so while the pipeline runs no runner holds the job; its last step records the end
     * ({@link #finish(Datastore, KeyOrder, String, long)}).
     */
    public void detach() {
        if (renewals != null) {
            renewals.shutdownNow();
        }
        lease.ended();
    }

    /** Records how the run ended (DONE only when every cell is, FAILED otherwise) and releases the lease. */
    public JobStatus finish(long wallMillis) {
        return finish(wallMillis, null);
    }

    /** {@link #finish(long)} of an export: its recorded parts ({@code parts}) are joined before DONE is recorded. */
    public JobStatus finish(long wallMillis, PartFiles parts) {
        return finish(wallMillis, parts, false);
    }

    /**
     * As above; a run its launcher {@code cancelled} (Ctrl-C) that left work is recorded CANCELLED instead of FAILED:
     * resumable, by {@code keyranger run --resume} or a launch with the same job id.
     */
    public JobStatus finish(long wallMillis, PartFiles parts, boolean cancelled) {
        if (renewals != null) {
            renewals.shutdownNow();
        }
        try {
            return finish(datastore, cells.order(), spec.jobId(), wallMillis, parts,
                    cancelled ? JobStatus.CANCELLED : JobStatus.FAILED);
        } finally {
            try {
                new JobStore(datastore).fencedOnJob("release", lease, job -> List.of(lease.released()));
            } catch (RuntimeException e) {
                LOG.debug("The lease of job {} was not ours to release: {}", spec.jobId(), e.toString());
            } finally {
                lease.ended();
            }
        }
    }

    /**
     * Records how a run of job {@code jobId} ended, from wherever it ran (the pipeline's last step on a worker, or the
     * launcher that waited for it): DONE only when every cell is, FAILED otherwise. It is written in a transaction on
     * the job entity, the job's fence: a job a revert took back keeps the status the revert left (returned), so a
     * pipeline that ends after the revert does not record an end over it.
     */
    public static JobStatus finish(Datastore datastore, KeyOrder order, String jobId, long wallMillis) {
        return finish(datastore, order, jobId, wallMillis, null);
    }

    /**
     * {@link #finish(Datastore, KeyOrder, String, long)} of an export: its recorded parts ({@code parts}; null for a
     * job that writes no file) are joined into its file before DONE is recorded, and removed after, as a local run
     * does. A job whose end is recorded DONE already (the pipeline's last step did it, then its launcher comes here)
     * is not joined again.
     */
    public static JobStatus finish(Datastore datastore, KeyOrder order, String jobId, long wallMillis,
                                   PartFiles parts) {
        return finish(datastore, order, jobId, wallMillis, parts, JobStatus.FAILED);
    }

    private static JobStatus finish(Datastore datastore, KeyOrder order, String jobId, long wallMillis,
                                    PartFiles parts, JobStatus notDone) {
        JobStore store = new JobStore(datastore);
        List<RangeNode> nodes = store.loadNodes(jobId, order, datastore);
        boolean done = !nodes.isEmpty() && nodes.stream().allMatch(n -> n.status() == NodeStatus.DONE);
        boolean joins = parts != null && !parts.joinedByGroup(); // a kind of a group: the group joins
        if (done && joins) {
            Entity job = RetryPolicy.DEFAULT.call(() -> datastore.get(store.jobKey(jobId)));
            if (job != null && (job.contains(JobStore.REVERTED_BY)
                    || JobStatus.DONE.name().equals(job.getString("status")))) {
                return JobStatus.valueOf(job.getString("status"));
            }
            parts.joinRecorded(RetryPolicy.DEFAULT.call(() -> store.loadLedgers(jobId, datastore)), order);
        }
        JobStatus[] recorded = {done ? JobStatus.DONE : notDone};
        RetryPolicy.DEFAULT.call(() -> {
            store.fenced("finish", store.jobKey(jobId), job -> { }, job -> {
                if (job.contains(JobStore.REVERTED_BY)) {
                    recorded[0] = JobStatus.valueOf(job.getString("status"));
                    LOG.warn("Job {} was reverted (by {}): its end is not recorded over the revert's.", jobId,
                            job.getString(JobStore.REVERTED_BY));
                    return List.of();
                }
                return List.of(Entity.newBuilder(job).set("status", recorded[0].name())
                        .set("lastWallMillis", wallMillis).set("finishedAt", Timestamp.now())
                        // its cells are its ranges: a local run's tree recorded before is not this run's
                        .set("lastRanges", 0).set("lastDepth", 0).build());
            });
            return null;
        });
        if (joins && done && recorded[0] == JobStatus.DONE) {
            parts.removeParts();
        }
        return recorded[0];
    }
}
