package io.keyranger.executor;

import io.keyranger.job.LeaseMode;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.WriteSafety;
import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.source.InputRun;
import io.keyranger.executor.store.JobStore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The engine's front door for starting or resuming one job on this machine: over the key ranges of a kind or over the
 * entries of a file (an import, a restore), every job runs on the {@link AdaptiveSplitExecutor}, and the caller gets a
 * {@link JobHandle} and the same listener events. Groups of kinds, reverts and the checks before a launch sit above
 * it, in the application layer ({@code io.keyranger.launch.Jobs}) that the command line and the app share.
 */
public final class Engine {
    private final Datastore datastore;
    private final KeyOrder order;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private final boolean readOnly;
    private final Duration lease;
    private final Session session;
    private EngineSeams seams = EngineSeams.NONE;

    public Engine(Session session, RetryPolicy retries, Duration lease) {
        this.session = session;
        this.datastore = session.datastore();
        this.order = session.order();
        this.limits = session.limits();
        this.retries = retries;
        this.readOnly = session.readOnly();
        this.lease = lease;
    }

    /** For tests: the hooks every job it starts or resumes runs with ({@link EngineSeams#NONE} unless set). */
    public Engine seams(EngineSeams value) {
        this.seams = value;
        return this;
    }

    /** The database this launcher's jobs run on. */
    public Datastore datastore() {
        return datastore;
    }

    /** The key order of this launcher's database. */
    public KeyOrder order() {
        return order;
    }

    /** What one commit may hold on this launcher's server. */
    public ServerLimits limits() {
        return limits;
    }

    public AdaptiveSplitExecutor executor() {
        return new AdaptiveSplitExecutor(datastore, order, limits, retries).readOnly(readOnly).leaseDuration(lease)
                .servesAtOnce(session.spec().server().servesAtOnce()).seams(seams)
                .watching(spec -> JobReadTime.watch(session, spec, Instant.now()));
    }

    /**
     * Starts a new job. Its input is checked first ({@link InputRun#checked}: a file read whole, a bad entry refused
     * before anything is written) and the moments it reads must still be kept; a job that brings entities in (an
     * import, a restore) with the id of an earlier one on the same input resumes it, {@code mode} saying what to do
     * when another runner holds it (a job over key ranges is new, so only its id must be free).
     */
    public JobHandle start(JobSpec spec, LeaseMode mode, JobListener listener, Consumer<String> waiting) {
        return start(spec, mode, listener, waiting, () -> { });
    }

    /**
     * As above; {@code checked} runs once every check before the start passed (a file read whole, a stored job of the
     * id found the same), just before the job starts: where a front end says what runs, never before a refusal.
     */
    public JobHandle start(JobSpec spec, LeaseMode mode, JobListener listener, Consumer<String> waiting,
                           Runnable checked) {
        InputRun input = InputRun.of(spec);
        if (readOnly) {
            WriteSafety.refuseOnReadOnly(true, Mappers.template(spec.mapper().template()), spec.kind());
        }
        JobStore.StoredJob stored = input.input().bringsEntitiesIn() ? find(spec.jobId()) : null;
        JobSpec ready = ready(input, stored == null ? spec : stored.spec(), spec, stored, waiting);
        checked.run();
        return stored == null ? executor().start(ready, listener) : executor().resume(spec.jobId(), mode, listener,
                waiting);
    }

    /**
     * Resumes a job from its ledgers: unless it is done, its input is checked again as at its start (a file read
     * whole: one that is not the input it was started on is refused before anything is written) and the moments it
     * reads must still be kept.
     */
    public JobHandle resume(String jobId, LeaseMode mode, JobListener listener, Consumer<String> waiting) {
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).loadJob(jobId));
        if (stored.status() != JobStatus.DONE) {
            ready(InputRun.of(stored.spec()), stored.spec(), stored.spec(), stored, waiting);
        }
        return executor().resume(jobId, mode, listener, waiting);
    }

    /**
     * The one check of a run before it starts: {@code spec} checked against the stored job of its id ({@code stored},
     * or null), and the moments the job reads ({@code moments}: the stored job's when it resumes) still kept unless
     * it is done. A new job over key ranges was checked as its read time was stamped (once for a group of kinds:
     * {@link JobReadTime#stamped}); one that brings entities in (a restore's moments) is checked here.
     */
    private JobSpec ready(InputRun input, JobSpec moments, JobSpec spec, JobStore.StoredJob stored,
                          Consumer<String> waiting) {
        boolean done = stored != null && stored.status() == JobStatus.DONE;
        JobSpec ready = input.checked(datastore, LocalFileStore.INSTANCE, order, spec,
                stored == null ? null : new InputRun.Earlier(stored.spec(), done), waiting);
        if (stored == null ? input.input().bringsEntitiesIn() : !done) {
            JobReadTime.requireKept(session, moments, Instant.now());
        }
        return ready;
    }

    private JobStore.StoredJob find(String jobId) {
        return retries.call(() -> new JobStore(datastore).findJob(jobId));
    }

    /**
     * Refuses a run under the id of a stored job that brings entities in (an import, a restore) and was started with
     * other options, so that a front end can say so before it says anything of the job ({@link #start} refuses it too,
     * as it starts); any other job, and one whose id is new, passes.
     */
    public void requireSameOptions(JobSpec spec) {
        InputRun input = InputRun.of(spec);
        JobStore.StoredJob stored = input.input().bringsEntitiesIn() ? find(spec.jobId()) : null;
        if (stored != null) {
            input.requireSameOptions(datastore, order, spec, stored.spec());
        }
    }

    /**
     * {@code spec} (of a job that brings entities in) checked as every runner, local or Beam, checks it before it
     * starts ({@link InputRun#checked}; {@code warnings} hears what the user should know): the job of its id, if
     * stored, read once for it.
     */
    public static JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, RetryPolicy retries,
                                  JobSpec spec, Consumer<String> warnings) {
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).findJob(spec.jobId()));
        return InputRun.of(spec).checked(datastore, files, order, spec, stored == null ? null
                : new InputRun.Earlier(stored.spec(), stored.status() == JobStatus.DONE), warnings);
    }
}
