package io.keyranger.executor.local;

import io.keyranger.counter.ShardedCounter;
import io.keyranger.job.MomentWatch;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import java.util.Map;

/**
 * What a local run of a job shares between the run ({@link JobRun}) and every range's worker ({@link RangeWorker}):
 * the page work any runner does (connection, spec, cells, mapper, committer, source, seams), the job's store, lease and
 * counter, the retries, the spans known covered, how ranges split, the live tree, the server's latency gauge and the
 * job's rate limit. Built once per run; everything in it is safe to share between the run's threads.
 */
final class RunContext {
    private final PageWork work;
    private final RetryPolicy retries;
    private final JobStore store;
    private final JobLease lease;
    private final ShardedCounter counter;
    private final PageLoop.Covered covered;
    private final SplitPolicy policy;
    private final SplitPoints splitPoints;
    private final PartFiles parts;
    private final JobListener listener;
    private final ProgressTree tree;
    private final ServerGauge gauge = new ServerGauge();
    private final RampingRateLimiter limiter;
    private final MomentWatch watch;

    /**
     * @param parts where an export's parts go, or null for a job that writes no file
     * @param watch the job's moments of the past against the server's window ({@link MomentWatch#NONE} for none)
     */
    RunContext(PageWork work, RetryPolicy retries, JobStore store, JobLease lease, ShardedCounter counter,
               PageLoop.Covered covered, SplitPolicy policy, PartFiles parts, JobListener listener, MomentWatch watch) {
        this.watch = watch;
        this.work = work;
        this.retries = retries;
        this.store = store;
        this.lease = lease;
        this.counter = counter;
        this.covered = covered;
        this.policy = policy;
        this.splitPoints = SplitPoints.forJob(work.cells(), work.spec().workers());
        this.parts = parts;
        this.listener = listener;
        this.tree = new ProgressTree(work.spec().jobId(), listener);
        this.limiter = new RampingRateLimiter(work.spec().qps());
    }

    PageWork work() {
        return work;
    }

    /** The job's moments of the past, watched against the server's window as it goes. */
    MomentWatch watch() {
        return watch;
    }

    JobSpec spec() {
        return work.spec();
    }

    String jobId() {
        return work.spec().jobId();
    }

    RetryPolicy retries() {
        return retries;
    }

    JobStore store() {
        return store;
    }

    JobLease lease() {
        return lease;
    }

    PageLoop.Covered covered() {
        return covered;
    }

    SplitPolicy policy() {
        return policy;
    }

    SplitPoints splitPoints() {
        return splitPoints;
    }

    /** Where an export's parts go, or null. */
    PartFiles parts() {
        return parts;
    }

    JobListener listener() {
        return listener;
    }

    ProgressTree tree() {
        return tree;
    }

    ServerGauge gauge() {
        return gauge;
    }

    RampingRateLimiter limiter() {
        return limiter;
    }

    /** The job's persisted totals, read with {@code retries}. */
    Map<String, Long> persistedTotals(RetryPolicy retries) {
        return retries.call(counter::totals);
    }

    /** Counts {@code keys} keys that could not commit as failed, in the live totals and the job's counter. */
    void countFailed(long keys) {
        tree.addTotal("failed", keys);
        counter.increment("failed", keys, retries, tx -> { });
    }
}
