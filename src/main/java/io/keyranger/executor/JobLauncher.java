package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.datastore.Session;
import io.keyranger.executor.job.JobReport;
import io.keyranger.executor.job.JobResult;
import io.keyranger.executor.job.JobSpec;
import io.keyranger.executor.job.JobStatus;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.lease.JobFencedException;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.JobHandle;
import io.keyranger.executor.local.JobListener;
import io.keyranger.executor.local.PauseGate;
import io.keyranger.executor.local.RangeAttempts;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The one way to start or resume a job, for the command line and the app alike: the spec's template decides whether
 * it runs over the key ranges of a kind (the {@link AdaptiveSplitExecutor}) or from a file (an {@link ImportJob});
 * either way the caller gets a {@link JobHandle} and the same listener events.
 */
public final class JobLauncher {
    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private final boolean readOnly;
    private final Duration lease;
    private java.util.function.UnaryOperator<io.keyranger.mapper.PageMapper> wrapMapper =
            java.util.function.UnaryOperator.identity();
    private io.keyranger.executor.cells.CommitHook importHook = io.keyranger.executor.cells.CommitHook.NONE;

    public JobLauncher(Session session, RetryPolicy retries, Duration lease) {
        this.datastore = session.datastore();
        this.order = session.order();
        this.limits = session.limits();
        this.retries = retries;
        this.readOnly = session.readOnly();
        this.lease = lease;
    }

    /** For tests: wraps the mapper of every key-range job it starts or resumes (imports have none). */
    public JobLauncher wrapMapper(java.util.function.UnaryOperator<io.keyranger.mapper.PageMapper> wrapper) {
        this.wrapMapper = wrapper;
        return this;
    }

    /** For tests: a hook before every commit of the imports (and restores) it starts. */
    public JobLauncher importCommitHook(io.keyranger.executor.cells.CommitHook hook) {
        this.importHook = hook;
        return this;
    }

    /** The key-range executor this launcher uses, for listings and benchmarks. */
    /** The database this launcher's jobs run on. */
    Datastore datastore() {
        return datastore;
    }

    /** The key order of this launcher's database. */
    KeyOrder order() {
        return order;
    }

    /** What one commit may hold on this launcher's server. */
    ServerLimits limits() {
        return limits;
    }

    public AdaptiveSplitExecutor executor() {
        return new AdaptiveSplitExecutor(datastore, order, limits, retries).readOnly(readOnly).leaseDuration(lease)
                .wrapMapper(wrapMapper);
    }

    /**
     * Starts a new job. An import with the id of an earlier one resumes it; {@code mode} says what to do when
     * another runner holds it (key-range jobs are new, so only their id must be free).
     */
    public JobHandle start(JobSpec spec, JobLease.Mode mode, JobListener listener, Consumer<String> waiting) {
        Template template = Mappers.template(spec.mapper().template());
        if (template.source() == Template.Source.KEY_RANGES) {
            return executor().start(spec, listener);
        }
        template.validate(spec.mapper());
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        JobHandle handle = new JobHandle(spec.jobId(), new PauseGate(), result);
        ImportJob job = new ImportJob(datastore, limits, retries).readOnly(readOnly).leaseDuration(lease)
                .takeOver(mode, waiting).cancelWhen(handle::isCancelled)
                .skipBadLines(spec.mapper().json().path(ImportJob.SKIP_BAD_LINES).asBoolean(false))
                .restoreMode(RestoreMode.of(spec.mapper().json().path(ImportJob.MODE).asText("overwrite")))
                .undo(spec.mapper().undo()).commitHook(importHook);
        ImportInput input = job.input(spec.mapper(), spec.namespace(), spec.kind(), order);
        ImportFile.Check check = job.check(input); // the whole input, before anything is taken or written
        check.warnings().forEach(waiting);
        // refused here, at once, while another runner holds it or when it was started on other input
        JobLease taken = job.take(spec.jobId(), spec.kind(), input.identity(check));
        long started = System.nanoTime();
        Thread thread = new Thread(() -> {
            JobResult done;
            try {
                ImportJob.Result imported = job.runTaken(taken, spec.jobId(), input, spec.kind(),
                        line -> listener.onTotals(Map.of("lines", line)));
                done = new JobResult(spec.jobId(), imported.cancelled() ? JobStatus.CANCELLED : JobStatus.DONE,
                        imported.totals(), 0, 0, millisSince(started), 0, null, report(check, job, imported.totals()));
            } catch (JobFencedException e) {
                Map<String, Long> totals = persisted(job, spec);
                done = new JobResult(spec.jobId(), JobStatus.TAKEN_OVER, totals, 0, 0, millisSince(started), 0,
                        e.getMessage(), report(check, job, totals));
            } catch (RuntimeException e) {
                Map<String, Long> totals = persisted(job, spec);
                done = new JobResult(spec.jobId(), JobStatus.FAILED, totals, 0, 0, millisSince(started), 0,
                        e instanceof io.keyranger.KeyRangerException ? e.getMessage() : RangeAttempts.describe(e),
                        report(check, job, totals));
            }
            listener.onFinished(done);
            result.complete(done);
        }, "keyranger-import-" + spec.jobId());
        thread.setDaemon(true);
        thread.start();
        return handle;
    }

    /** Resumes a key-range job from its checkpoints (an import resumes by starting it again with its id). */
    public JobHandle resume(String jobId, JobLease.Mode mode, JobListener listener, Consumer<String> waiting) {
        return executor().resume(jobId, mode, listener, waiting);
    }

    /** An import's skips with examples: the bad lines its check found, the entities changed since the export. */
    private static JobReport report(ImportFile.Check check, ImportJob job, Map<String, Long> totals) {
        List<JobReport.ReasonGroup> skips = new java.util.ArrayList<>();
        if (check.bad() > 0) {
            skips.add(new JobReport.ReasonGroup(ImportFile.BAD_LINE, check.bad(), check.examples(), true));
        }
        long changed = totals.getOrDefault(JobReport.SKIPPED_PREFIX + RestoreMode.CHANGED, 0L);
        if (changed > 0) {
            skips.add(new JobReport.ReasonGroup(RestoreMode.CHANGED, changed, job.changedExamples().stream()
                    .map(io.keyranger.mapper.MapResult.Problem::reason).toList(), false));
        }
        return skips.isEmpty() ? JobReport.EMPTY : new JobReport(List.of(), skips);
    }

    /** What an import that stopped early committed, as its counter says; nothing when even that cannot be read. */
    private static Map<String, Long> persisted(ImportJob job, JobSpec spec) {
        try {
            return job.totals(spec.jobId());
        } catch (RuntimeException unreachable) {
            return Map.of();
        }
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
