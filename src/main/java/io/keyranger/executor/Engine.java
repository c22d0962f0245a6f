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
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.source.ImportFile;
import io.keyranger.executor.source.ImportIdentity;
import io.keyranger.executor.source.ImportInput;
import io.keyranger.executor.source.PastJobs;
import io.keyranger.executor.source.SourceJobs;
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
                .seams(seams).watching(spec -> JobReadTime.watch(session, spec, Instant.now()));
    }

    /**
     * Starts a new job. A job that reads a file (an import, a restore) is checked whole first (a bad entry is refused
     * before anything is written), and one with the id of an earlier one on the same input resumes it; {@code mode}
     * says what to do when another runner holds it (key-range jobs are new, so only their id must be free).
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
        if (SourceJobs.readsPast(spec.mapper())) {
            return startPast(spec, mode, listener, waiting, checked);
        }
        if (!SourceJobs.readsFile(spec.mapper())) {
            checked.run();
            return executor().start(spec, listener);
        }
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        WriteSafety.refuseOnReadOnly(readOnly, Mappers.template(spec.mapper().template()), spec.kind());
        Checked input = check(datastore, LocalFileStore.INSTANCE, order, retries, spec, waiting);
        checked.run();
        return input.earlier() == null ? executor().start(input.spec(), listener)
                : executor().resume(spec.jobId(), mode, listener, waiting); // its input checked just now
    }

    /**
     * Resumes a job from its ledgers. A job that reads a file reads it whole again first: one whose input is not the
     * one it was started on is refused before anything is written.
     */
    public JobHandle resume(String jobId, LeaseMode mode, JobListener listener, Consumer<String> waiting) {
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).loadJob(jobId));
        if (stored.status() != JobStatus.DONE) {
            JobReadTime.requireKept(session, stored.spec(), Instant.now());
        }
        if (SourceJobs.readsFile(stored.spec().mapper()) && stored.status() != JobStatus.DONE) {
            // refused when the input changed
            check(datastore, LocalFileStore.INSTANCE, order, retries, stored.spec(), waiting);
        }
        return executor().resume(jobId, mode, listener, waiting);
    }

    /**
     * Starts a restore from the database's past, or resumes the one of its id started with the same spec (its moments
     * kept in it, so the resume reads the same past); refused when the job of its id is another, and (unless it is
     * done already, which says so) when its moments are no longer in the server's window or its keys file changed.
     */
    private JobHandle startPast(JobSpec spec, LeaseMode mode, JobListener listener, Consumer<String> waiting,
                                Runnable checked) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        WriteSafety.refuseOnReadOnly(readOnly, Mappers.template(spec.mapper().template()), spec.kind());
        String project = datastore.getOptions().getProjectId();
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).findJob(spec.jobId()));
        if (stored == null) {
            JobReadTime.requireKept(session, spec, Instant.now());
            JobSpec stamped = PastJobs.stamped(LocalFileStore.INSTANCE, project, order, spec, null);
            checked.run();
            return executor().start(stamped, listener);
        }
        JobSpec was = stored.spec();
        refuseOtherOptions(spec, was);
        if (stored.status() != JobStatus.DONE) {
            JobReadTime.requireKept(session, spec, Instant.now());
            PastJobs.stamped(LocalFileStore.INSTANCE, project, order, spec, was); // refused when its keys changed
        }
        checked.run();
        return executor().resume(spec.jobId(), mode, listener, waiting);
    }

    /**
     * Refuses a restore from the past under the id of a stored job that was started with other options, so that a
     * front end can say so before it says anything of the job ({@link #start} refuses it too, as it starts); any
     * other job, and one whose id is new, passes.
     */
    public void requireSameOptions(JobSpec spec) {
        if (!SourceJobs.readsPast(spec.mapper())) {
            return;
        }
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).findJob(spec.jobId()));
        if (stored != null) {
            refuseOtherOptions(spec, stored.spec());
        }
    }

    private void refuseOtherOptions(JobSpec spec, JobSpec was) {
        JobSpec asked = spec.bind(datastore.getOptions().getProjectId(), order);
        if (!SourceJobs.sameOptions(asked, was)) {
            throw new KeyRangerException("Job " + spec.jobId() + " was started with other options: "
                    + SourceJobs.describe(was) + "; this run asks for " + SourceJobs.describe(asked) + ". Nothing "
                    + "was written. Resume it by its id alone with 'keyranger run --resume " + spec.jobId() + "' (it "
                    + "keeps its moments), or run it with the options it was started with (the same --as-of and "
                    + "--until, as absolute times), or give this run another --job-id.");
        }
    }

    /**
     * {@code spec} (of a job that reads a file) with what its input is kept in it, once the whole input was read and
     * found good ({@code warnings} hears what the user should know): the one check of every runner, local or Beam.
     * A job of its id started on other input is refused; one started on this input keeps the identity it was
     * stamped with (where and when the input was found only describe it).
     */
    public static JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, RetryPolicy retries,
                                  JobSpec spec, Consumer<String> warnings) {
        return check(datastore, files, order, retries, spec, warnings).spec();
    }

    /**
     * A checked spec, and the job of its id as it was stored before, or null for a new one: the job's entity is read
     * once, for both.
     */
    private record Checked(JobSpec spec, JobStore.StoredJob earlier) {
    }

    private static Checked check(Datastore datastore, FileStore files, KeyOrder order, RetryPolicy retries,
                                 JobSpec spec, Consumer<String> warnings) {
        ImportInput input = SourceJobs.input(datastore, files, order, spec.mapper(), spec.namespace(), spec.kind());
        ImportFile.Check check = input.check(SourceJobs.skipBadLines(spec.mapper()), () -> false);
        check.warnings().forEach(warnings);
        ImportIdentity identity = input.identity(check).selecting("kind " + spec.kind() + ", mode "
                + SourceJobs.mode(spec.mapper()).id());
        JobStore.StoredJob stored = retries.call(() -> new JobStore(datastore).findJob(spec.jobId()));
        if (stored != null) {
            JobSpec was = stored.spec();
            if (!SourceJobs.readsFile(was.mapper())) {
                throw new KeyRangerException("Job " + spec.jobId() + " is a '" + was.mapper().template() + "' job over "
                        + was.kind() + ", not an import or a restore. Nothing was written. Give this one another "
                        + "--job-id.");
            }
            identity.requireSameAs(was.mapper(), "Job " + spec.jobId());
            JobSpec again = SourceJobs.stampedAs(spec, was, identity, check);
            if (!again.mapper().json().equals(was.mapper().json()) || !again.kind().equals(was.kind())
                    || !again.namespace().equals(was.namespace())) {
                throw new KeyRangerException("Job " + spec.jobId() + " was started with other options: "
                        + SourceJobs.describe(was) + "; this run asks for " + SourceJobs.describe(again) + ". Nothing "
                        + "was written. Run it with the options it was started with to resume it (its file at the "
                        + "same path), or give this run another --job-id.");
            }
            return new Checked(again, stored);
        }
        return new Checked(SourceJobs.stamped(spec, identity, check), null);
    }
}
