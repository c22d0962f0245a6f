package io.keyranger.launch;

import io.keyranger.job.JobInput;
import io.keyranger.job.ListedJob;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.ServerExports;
import io.keyranger.datastore.Session;
import io.keyranger.executor.Engine;
import io.keyranger.executor.JobReadTime;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.store.JobStore;
import io.keyranger.group.JobKinds;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.mapper.Template;
import io.keyranger.undo.JobUndo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The jobs of one connection, as the command line and the app both run them: prepares a launch (what the user must
 * agree to, what to read first, what to warn of), then starts, resumes (a group of kinds or one job, decided here),
 * reverts or takes over; inspects and lists stored jobs, and prunes their undo records. It sits above the engine's
 * {@link Engine} (one job on this machine), {@link KindGroup}, {@link JobUndo} and backups; the views and commands
 * only turn what it says into dialogs or messages.
 */
public final class Jobs {
    private final Session session;
    private final RetryPolicy retries;
    private final Engine launcher;

    /** {@code retries}: how calls before and in its jobs retry; {@code lease}: how long a runner's lease lasts. */
    public Jobs(Session session, RetryPolicy retries, Duration lease) {
        this.session = session;
        this.retries = retries;
        this.launcher = new Engine(session, retries, lease);
    }

    /** With the default retries and lease, as the app runs jobs. */
    public static Jobs on(Session session) {
        return new Jobs(session, RetryPolicy.DEFAULT, JobLease.DEFAULT_DURATION);
    }

    /** For tests and benchmarks: the engine's seams for every job these jobs start or resume. */
    public Jobs seams(EngineSeams seams) {
        launcher.seams(seams);
        return this;
    }

    public Session session() {
        return session;
    }

    /** How calls before a job retry: as the job's own do. */
    public RetryPolicy retries() {
        return retries;
    }

    /**
     * Prepares {@code request} for {@link #launch}: what the user must agree to ({@link Consent}, over a kind whose
     * count is {@code count}, -1 when not known), and what is read before anything is written. A new job's kinds are
     * checked (a group's listed); an export is refused when its disk lacks room; a key-range job's spec is checked
     * against its kind's properties; a resume finds whether it names a group, and a resumed job's failures that
     * retrying will not fix; a revert, the jobs it takes back (refused when one cannot be). A check that fails throws
     * a message the user can act on.
     */
    public Preparation prepare(JobRequest request, long count, PriceTable prices) {
        if (request instanceof JobRequest.NewJob job) {
            Consent consent = Consent.of(session.spec(), job, count, prices);
            if (!job.severalKinds() && job.spec().mapper().template().equals("export")) {
                // before the first read of the job: the disk must have room for what it will write
                ExportSpace.check(ExportSpace.estimate(reading(job.spec()).datastore(), session.order(),
                        job.spec()), Path.of(job.spec().mapper().json().path("file").asText()));
            }
            List<String> kinds = kinds(job);
            return new Preparation(job, consent, kinds, null, List.of(),
                    job.severalKinds() ? List.of() : propertyWarnings(job.spec()), List.of(),
                    job.allKinds() && !job.bookkeeping() ? bookkeeping(job) : List.of());
        }
        if (request instanceof JobRequest.Resume resume) {
            Preparation found = resolve(resume);
            return found.resumesGroup() ? found : new Preparation(resume, null, List.of(), null, List.of(), List.of(),
                    permanentFailures(resume.jobId()));
        }
        JobRequest.Revert revert = (JobRequest.Revert) request;
        List<JobStore.StoredJob> jobs = retries.call(() -> JobUndo.revertible(session.datastore(), revert.jobId()));
        return new Preparation(revert, Consent.of(session.spec(), revert),
                jobs.stream().map(j -> j.spec().kind()).toList(), null, jobs.stream().map(JobStore.StoredJob::spec).toList(),
                List.of(), List.of());
    }

    /**
     * The kinds a new job runs over, checked: a group's, listed and each found (a bookkeeping or reserved kind
     * refused); a job's one kind, found (an import's may be new). A job with a read time finds them as of that time.
     */
    public List<String> kinds(JobRequest.NewJob job) {
        JobSpec spec = job.spec();
        if (!job.severalKinds() && JobInput.of(spec).bringsEntitiesIn()) {
            requireJobKind(job);
            return List.of(spec.kind());
        }
        Session reading = reading(spec);
        List<String> kinds = retries.call(() -> JobKinds.kinds(reading.datastore(), session.spec().server(),
                spec.namespace(), job.severalKinds() ? job.kinds() : List.of(spec.kind()), job.allKinds()));
        if (!job.bookkeeping()) {
            return kinds;
        }
        List<String> all = new ArrayList<>(kinds);
        all.addAll(bookkeeping(job));
        return all;
    }

    /**
     * A new job's one kind that no listing checks (an import may make a new kind): never a bookkeeping or reserved
     * one, and for a restore from the past one the moment holds ({@link PastKinds}), under an id that is new or whose
     * stored job has the same kind and options (so a refusal comes before anything is said of the job).
     */
    private void requireJobKind(JobRequest.NewJob job) {
        BookkeepingKinds.requireUserKind(job.spec().kind());
        retries.call(() -> {
            PastKinds.requireHeld(session, job.spec());
            return null;
        });
        launcher.requireSameOptions(job.spec());
    }

    /** KeyRanger's bookkeeping kinds in a job's namespace (as of its read time, when it has one). */
    private List<String> bookkeeping(JobRequest.NewJob job) {
        Session reading = reading(job.spec());
        return retries.call(() -> JobKinds.bookkeeping(reading.datastore(), session.spec().server(),
                job.spec().namespace()));
    }

    /** The spec's property parameters against the kind's properties as the server lists them (key-range jobs). */
    private List<String> propertyWarnings(JobSpec spec) {
        if (Mappers.template(spec.mapper().template()).source() != Template.Source.KEY_RANGES) {
            return List.of();
        }
        DatastoreGateway gateway = new DatastoreGateway(reading(spec).datastore(), session.spec().server());
        List<PropertyInfo> properties = retries.call(() -> gateway.properties(spec.namespace(), spec.kind()));
        return SpecChecks.warnings(spec.mapper(), spec.kind(), properties, !gateway.listsEverything());
    }

    /** The session job {@code spec} reads through: as of its read time when it has one (a job as of a time). */
    private Session reading(JobSpec spec) {
        Instant time = spec.mapper().readTime();
        return time == null ? session : session.asOf(PointInTime.at(time));
    }

    /** A stored job's failures that retrying will not fix (none when there is no such job: the resume says so). */
    private List<JobReport.ReasonGroup> permanentFailures(String jobId) {
        try {
            return launcher.executor().report(jobId).failures().stream().filter(JobReport.ReasonGroup::permanent)
                    .toList();
        } catch (KeyRangerException noSuchJob) {
            return List.of();
        }
    }

    /** Runs what {@code prepared} says, feeding {@code listener}; {@code waiting} hears what it waits for. */
    public JobHandle launch(Preparation prepared, JobListener listener, Consumer<String> waiting) {
        return launch(prepared, listener, waiting, () -> { });
    }

    /**
     * As above; {@code starting} runs once everything before the job's start was done and checked (a new group's
     * entity stored, a file read whole, a stored job of the id found the same), just before it starts: where the
     * command line says what runs, never before a refusal.
     */
    public JobHandle launch(Preparation prepared, JobListener listener, Consumer<String> waiting, Runnable starting) {
        if (prepared.request() instanceof JobRequest.NewJob job) {
            // a job that only reads reads one snapshot: as of its start (a group's, for all its kinds) unless given
            JobSpec spec = JobReadTime.stamped(session, job.spec(), Instant.now());
            if (!job.severalKinds()) {
                return launcher.start(spec, job.mode(), listener, waiting, starting);
            }
            KindGroup.Plan plan = KindGroup.create(session.datastore(), spec.jobId(), prepared.kinds(), spec);
            starting.run();
            return KindGroup.run(launcher, plan, job.mode(), listener, waiting);
        }
        if (prepared.request() instanceof JobRequest.Resume resume) {
            requireReadTimeKept(prepared);
            starting.run();
            return prepared.resumesGroup() ? KindGroup.run(launcher, prepared.group(), resume.mode(), listener, waiting)
                    : launcher.resume(resume.jobId(), resume.mode(), listener, waiting);
        }
        starting.run();
        JobRequest.Revert revert = (JobRequest.Revert) prepared.request();
        return JobUndo.startRevert(launcher, revert.jobId(), revert.settings(), listener, waiting);
    }

    /**
     * A resumed group that reads one snapshot is refused once the server no longer keeps it (a resumed job is, by
     * {@link Engine#resume}).
     */
    private void requireReadTimeKept(Preparation prepared) {
        if (prepared.resumesGroup()) {
            JobReadTime.requireKept(session, prepared.group().spec(), Instant.now());
        }
    }

    /**
     * Prepares and launches {@code request} in one go, as the app does once the user agreed (it asked for consent
     * before, with the same {@link Consent}): every check of {@link #prepare} runs, and {@code notices} hears what the
     * command line prints before it runs ({@link Preparation#notices}).
     */
    public JobHandle launch(JobRequest request, JobListener listener, Consumer<String> waiting,
                         Consumer<String> notices) {
        Preparation prepared = prepare(request, -1, PriceTable.BUILT_IN);
        prepared.notices().forEach(notices);
        return launch(prepared, listener, waiting);
    }

    /**
     * Whether a resume names a group (the one place that decides it) and, if so, the group's kinds. One kind of a
     * group is refused: resumed on its own it would end without its group's work (the group's one export is joined
     * only when the group ends), so the group is resumed.
     */
    private Preparation resolve(JobRequest.Resume resume) {
        KindGroup.Plan group = retries.call(() -> KindGroup.load(session.datastore(), resume.jobId()));
        if (group == null) {
            JobStore.StoredJob job = retries.call(() -> new JobStore(session.datastore()).findJob(resume.jobId()));
            String of = job == null ? null : job.spec().group();
            if (of != null) {
                throw new KeyRangerException(resume.jobId() + " is one kind of the group " + of + ": resume " + of
                        + " (run --resume " + of + ").");
            }
        }
        return new Preparation(resume, null, group == null ? List.of() : group.kinds(), group, List.of(), List.of(),
                List.of());
    }

    /**
     * Backs {@code kinds} up before {@code job} runs: a managed export on the server to {@code to}, waited for
     * ({@code progress} hears how it goes) and recorded with the job; returns where it went.
     */
    public String backUp(JobSpec job, List<String> kinds, String to, Consumer<String> progress) {
        String url = ServerExports.export(session.spec(), to, job.namespace(), kinds, progress, Cancellation.NEVER);
        recordBackup(job.jobId(), url);
        return url;
    }

    /** Records that job {@code jobId} was backed up first to {@code where}: {@link #list} and {@link #inspect} say so. */
    public void recordBackup(String jobId, String where) {
        ServerExports.record(session.datastore(), jobId, where);
    }

    /**
     * The jobs stored on the connection, newest first, and where those backed up first were backed up to, by id.
     *
     * @param jobs    the jobs
     * @param backups each backed-up job's backup
     */
    public record Listing(List<ListedJob> jobs, Map<String, String> backups) {
    }

    public Listing list() {
        List<ListedJob> jobs = launcher.executor().jobs();
        return new Listing(jobs, ServerExports.backupsOf(session.datastore(),
                jobs.stream().map(j -> j.spec().jobId()).toList()));
    }

    /** A stored job as read back: its ranges, persisted totals and status, its backup, and its last run's figures. */
    public Inspection inspect(String jobId) {
        AdaptiveSplitExecutor executor = launcher.executor();
        JobStore store = new JobStore(session.datastore());
        JobStore.StoredJob stored = store.loadJob(jobId);
        return new Inspection(jobId, executor.nodes(jobId), executor.totals(jobId), stored.status(),
                ServerExports.backupsOf(session.datastore(), List.of(jobId)).get(jobId), stored.lastRanges(),
                stored.lastDepth(), stored.lastWallMillis(), stored.lastPauses(), stored.finished(),
                stored.status() == JobStatus.RUNNING ? null : store.lastRun(stored));
    }

    /** A stored job's persisted totals. */
    public Map<String, Long> totals(String jobId) {
        return launcher.executor().totals(jobId);
    }

    /** A stored job's report: its failures and skips, grouped by reason. */
    public JobReport report(String jobId) {
        return launcher.executor().report(jobId);
    }

    /** What a job's undo data allows, undo records kept {@code keep}; "" for an id that is not a job's (a group's). */
    public String undo(String jobId, Duration keep) {
        try {
            return JobUndo.describe(new JobStore(session.datastore()).loadJob(jobId), keep);
        } catch (RuntimeException notAJob) {
            return "";
        }
    }

    /**
     * Removes the undo records of every job that ended more than {@code keep} before {@code now}, but those a revert
     * still reads.
     */
    public JobUndo.Pruning prune(Duration keep, Instant now) {
        return JobUndo.prune(session.datastore(), keep, now);
    }
}
