package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.datastore.Session;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.nio.file.Path;
import java.time.Duration;
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

    /** The key-range executor this launcher uses, for listings and benchmarks. */
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
        Path file = Path.of(spec.mapper().json().path("file").asText());
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        JobHandle handle = new JobHandle(spec.jobId(), new PauseGate(), result);
        ImportJob job = new ImportJob(datastore, limits, retries).readOnly(readOnly).leaseDuration(lease)
                .takeOver(mode, waiting).cancelWhen(handle::isCancelled);
        JobLease taken = job.take(spec.jobId(), spec.kind()); // refused here, at once, while another runner holds it
        long started = System.nanoTime();
        Thread thread = new Thread(() -> {
            JobResult done;
            try {
                ImportJob.Result imported = job.runTaken(taken, spec.jobId(), file, spec.kind(),
                        line -> listener.onTotals(Map.of("lines", line)));
                done = new JobResult(spec.jobId(), imported.cancelled() ? JobStatus.CANCELLED : JobStatus.DONE,
                        imported.totals(), 0, 0, millisSince(started), 0);
            } catch (JobFencedException e) {
                done = new JobResult(spec.jobId(), JobStatus.TAKEN_OVER, Map.of(), 0, 0, millisSince(started), 0,
                        e.getMessage());
            } catch (RuntimeException e) {
                done = new JobResult(spec.jobId(), JobStatus.FAILED, Map.of(), 0, 0, millisSince(started), 0,
                        e instanceof io.keyranger.KeyRangerException ? e.getMessage() : RangeAttempts.describe(e));
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

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
