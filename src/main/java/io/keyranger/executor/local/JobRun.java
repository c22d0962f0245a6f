package io.keyranger.executor.local;

import io.keyranger.executor.range.RangeProblems;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.PauseGate;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.RunRecord;
import io.keyranger.job.ThroughputSampler;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a job: the worker pool and the count of ranges outstanding, the pause gate, the lease's renewals, and the
 * job's end. What the run shares with its workers is its {@link RunContext}; the work of each range is a
 * {@link RangeWorker}'s; the live tree and totals are the {@link ProgressTree}'s.
 */
final class JobRun {
    private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

    private final RunContext run;
    private final PauseGate gate = new PauseGate();
    private final CompletableFuture<JobResult> result = new CompletableFuture<>();
    private final JobHandle handle;
    private final RangeWorker worker;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final ThreadPoolExecutor pool;
    private final AtomicReference<JobFencedException> fencedBy = new AtomicReference<>();
    private final ScheduledExecutorService renewals;
    private long startNanos;
    /** The run's chart, sampled from its start. */
    private volatile ThroughputSampler throughput;

    JobRun(RunContext run) {
        this.run = run;
        JobSpec spec = run.spec();
        this.handle = new JobHandle(spec.jobId(), gate, result, () -> {
            ThroughputSampler sampler = throughput;
            return sampler == null ? List.of() : sampler.points();
        });
        this.pool = new ThreadPoolExecutor(spec.workers(), spec.workers(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemon("keyranger-job-", new AtomicInteger()));
        this.renewals = Executors.newSingleThreadScheduledExecutor(daemon("keyranger-lease-" + spec.jobId() + "-",
                new AtomicInteger()));
        this.worker = new RangeWorker(run, this);
    }

    /** Whether the job was cancelled (or taken over). */
    boolean cancelled() {
        return handle.isCancelled();
    }

    /**
     * Before a range starts and after each page: waits while the job is paused, then says whether the range stops
     * (cancelled, or interrupted).
     */
    boolean stopped() {
        return !awaitGate() || handle.isCancelled();
    }

    /** Idle workers and waiting ranges now (the pool's counts are approximate, which a split decision tolerates). */
    SplitPolicy.Load load() {
        return SplitPolicy.Load.of(pool.getMaximumPoolSize(), pool.getActiveCount(), pool.getQueue().size(),
                run.gauge());
    }

    private static ThreadFactory daemon(String prefix, AtomicInteger count) {
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Publishes the whole tree with the job's totals so far (none, unread, when {@code counterNew}: this run created
     * the counter), then runs the pending nodes once {@code calibration} is done.
     */
    JobHandle start(List<RangeNode> all, List<RangeNode> pending, boolean counterNew, Calibration calibration) {
        startNanos = System.nanoTime();
        // read before any worker: a fault is retried
        run.tree().load(all, counterNew ? Map.of() : run.persistedTotals(run.retries()));
        throughput = ThroughputSampler.start(run.jobId(), () -> run.tree().total("read"), this::runningMillis);
        long every = Math.max(100, run.lease().duration().toMillis() / 3);
        renewals.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        outstanding.incrementAndGet(); // held until every pending node is submitted
        calibration.applyTo(run.gauge());
        pending.forEach(this::submit);
        release();
        return handle;
    }

    /** Queues {@code node} in the pool; the job ends when no node is queued or running. */
    void submit(RangeNode node) {
        outstanding.incrementAndGet();
        pool.execute(() -> {
            try {
                worker.run(node);
            } catch (JobFencedException e) {
                fenced(e);
                node.cancelled();
                run.tree().publish(node);
            } catch (RuntimeException e) {
                LOG.error("Range {} of job {} failed unexpectedly", node.id(), run.jobId(), e);
                worker.fail(node, e);
            } finally {
                release();
            }
        });
    }

    private void release() {
        if (outstanding.decrementAndGet() == 0) {
            finish();
        }
    }

    private boolean awaitGate() {
        try {
            gate.awaitOpen();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Renews the lease; a take-over found here stops the job after the pages in flight (which, like every commit,
     * apply only keys no one has applied).
     */
    private void renew() {
        if (fencedBy.get() != null) {
            return;
        }
        try {
            run.lease().renew();
        } catch (JobFencedException e) {
            fenced(e);
        } catch (RuntimeException e) {
            // the next renewal tries again; if the lease runs out meanwhile, fencing still keeps every commit safe
            LOG.warn("Could not renew the lease of job {}: {}", run.jobId(), RangeAttempts.describe(e));
        }
    }

    /** Another runner took the job: stop after the pages in flight; the ledgers keep every commit exact anyway. */
    private void fenced(JobFencedException e) {
        if (fencedBy.compareAndSet(null, e)) {
            LOG.warn("{}", e.getMessage());
            handle.cancel(); // the result says who took the job over
        }
    }

    /** The job's running time so far, its pauses left out (a job's gate is its own: it starts unpaused). */
    private long runningMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos - handle.pausedNanos());
    }

    private void finish() {
        pool.shutdown();
        renewals.shutdownNow();
        ThroughputSampler sampler = throughput;
        if (sampler != null) {
            sampler.close();
        }
        long wall = runningMillis();
        ProgressTree tree = run.tree();
        int failed = tree.failed();
        JobStatus status = handle.isCancelled() ? JobStatus.CANCELLED : failed > 0 ? JobStatus.FAILED : JobStatus.DONE;
        String gone = worker.serverGone();
        // a server that stayed away for the whole wait is tried once more, not waited for again
        RetryPolicy retries = gone == null ? run.retries() : RetryPolicy.ONCE;
        JobResult done;
        try {
            done = fencedBy.get() == null ? record(status, wall, failed, retries, momentLeft()) : takenOver(wall, failed);
        } catch (JobFencedException e) {
            fenced(e);
            done = takenOver(wall, failed);
        } catch (RuntimeException e) {
            // the server may be gone: end cleanly with what is known; the checkpoints are intact for a resume
            LOG.error("Job {} could not record its end", run.jobId(), e);
            done = new JobResult(run.jobId(), status == JobStatus.DONE ? JobStatus.FAILED : status,
                    tree.snapshotTotals(), tree.size(), tree.maxDepth(), wall, Math.max(1, failed),
                    momentLeft() != null ? momentLeft() : gone != null ? "The job stopped: " + gone + ". Every commit "
                            + "made is kept; resume the job when the server is back."
                            : "Could not record the end of the job: " + RangeAttempts.describe(e),
                    RangeProblems.of(tree.nodes(), tree.snapshotTotals()));
        } finally {
            run.lease().ended();
        }
        run.listener().onFinished(done);
        result.complete(done);
    }

    /**
     * Records the job's end in a fenced transaction that also releases the lease. An export's parts are joined
     * before (every runner would join the same committed bytes, and the move into place is atomic) and removed only by
     * the runner whose end was recorded, so a runner taken over during the join never pulls them from under another.
     */
    /** Why the run stopped before its end, its moment of the past having left the server's window; or null. */
    private String momentLeft() {
        String left = worker.windowLeft();
        return left == null ? null : "The job stopped: " + left;
    }

    private JobResult record(JobStatus status, long wall, int failed, RetryPolicy retries, String message) {
        PartFiles parts = run.parts();
        ProgressTree tree = run.tree();
        Path written = null;
        // a kind of a job over several joins nothing: its group joins every kind's parts into one export at its end
        boolean joins = parts != null && status == JobStatus.DONE && !parts.joinedByGroup();
        if (joins) {
            try {
                written = Path.of(parts.joinRecorded(retries.call(() -> run.store().loadLedgers(
                        run.jobId(), run.work().datastore())), run.work().order()));
                // the join is part of the run the user waits for: the summary's time counts it, as the live clock did
                wall = runningMillis();
            } catch (RuntimeException e) {
                retries.call(() -> {
                    run.lease().check(run.work().datastore().get(run.lease().fenceKey()));
                    return null;
                });
                throw e;
            }
        }
        long ran = wall;
        // the moment the run's time was taken: its running time since then is what it ran past it
        Instant ended = Instant.now().minusMillis(Math.max(0, runningMillis() - ran));
        retries.call(() -> {
            run.store().finishJob(run.lease(), status, ran, ended, tree.size(), tree.maxDepth(), handle.pauses(),
                    new RunRecord(tree.nodes().stream().sorted(Comparator.comparingInt(RangeNode::depth))
                            .map(n -> n.snapshot(run.jobId())).toList(), handle.throughput()));
            return null;
        });
        if (joins) {
            parts.removeParts();
        }
        Map<String, Long> persisted = run.persistedTotals(retries);
        // the report from the ledgers, as 'keyranger jobs' gives it later: the skips and failures of every runner
        JobReport report = retries.call(() -> RangeProblems.of(run.store().loadNodes(run.jobId(),
                run.work().order(), run.work().datastore()), persisted));
        return new JobResult(run.jobId(), status, persisted, tree.size(), tree.maxDepth(), wall, failed, message,
                report, written);
    }

    private JobResult takenOver(long wall, int failed) {
        ProgressTree tree = run.tree();
        Map<String, Long> totalsNow;
        try {
            totalsNow = run.persistedTotals(run.retries());
        } catch (RuntimeException e) {
            totalsNow = tree.snapshotTotals();
        }
        return new JobResult(run.jobId(), JobStatus.TAKEN_OVER, totalsNow, tree.size(), tree.maxDepth(), wall,
                failed, fencedBy.get().getMessage());
    }
}
