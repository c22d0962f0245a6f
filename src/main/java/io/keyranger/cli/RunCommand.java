package io.keyranger.cli;
import io.keyranger.job.LeaseMode;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.launch.Preparation;
import io.keyranger.mapper.Mappers;
import io.keyranger.profile.SettingsStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs a mapper over a kind with the adaptive-split executor, or resumes a job. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a page mapper over a kind, or resume a job.")
public final class RunCommand implements Callable<Integer> {
    public static final int EXIT_RANGES_FAILED = 3;
    public static final int EXIT_CANCELLED = 4;
    /** Another runner took the job over while this one ran it: this one stopped, applying nothing more. */
    public static final int EXIT_TAKEN_OVER = 5;
    /** Another runner holds a live lease on the job: nothing was run. */
    public static final int EXIT_JOB_BUSY = 6;
    /**
     * The job is done but for entities it could not write (over Datastore's limits): they are unchanged, and its
     * report names them. ({@code 7}, left alone on purpose, is revert's.)
     */
    public static final int EXIT_NOT_ALL_WRITTEN = 8;

    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @ArgGroup(exclusive = true, multiplicity = "1")
    RunTarget target;

    @Option(names = "--take-over", description = "With --resume (or an import's --job-id): take the job from the runner "
            + "that holds it, once that runner's lease runs out (a stopped runner's does within 30 s).")
    boolean takeOver;

    @Option(names = "--force", description = "With --take-over: take the job at once, even from a live runner; that "
            + "runner stops at its next lease renewal, and nothing it does is applied twice.")
    boolean force;

    @Mixin
    AsOf asOf = new AsOf();

    @Option(names = "--no-snapshot", description = "A job that only reads (export, count) reads live data page by page "
            + "instead of one snapshot as of its start. Without point-in-time recovery a database keeps versions for an "
            + "hour: a longer export needs this (or PITR).")
    boolean noSnapshot;

    @Mixin
    ReportFile report = new ReportFile();

    @Mixin
    ConfirmProject confirm = new ConfirmProject();

    @Mixin
    TestHooks hooks = new TestHooks();

    private PriceTable prices;

    /** The section of {@code run --help} that lists the templates of a --mapper spec, with their parameters. */
    static final String TEMPLATES_SECTION = "templates";

    /** Adds the templates, as a two-column table, before the footer of {@code run}'s help. */
    static void addTemplatesHelp(CommandLine run) {
        run.getHelpSectionMap().put(TEMPLATES_SECTION, help -> {
            int width = help.commandSpec().usageMessage().width();
            CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(
                    help.colorScheme(), new CommandLine.Help.Column(19, 2,
                            CommandLine.Help.Column.Overflow.SPAN),
                    new CommandLine.Help.Column(width - 19, 1, CommandLine.Help.Column.Overflow.WRAP));
            Mappers.names().stream().sorted().map(Mappers::template).forEach(t -> table.addRowValues(t.name(),
                    t.description() + (t.params().isEmpty() ? "" : " Parameters: " + String.join(", ", t.params()
                            .stream().map(p -> p.name() + (p.required() ? "" : " (optional)")).toList()) + ".")));
            return String.format("%nTemplates (the \"template\" of a --mapper spec):%n") + table;
        });
        List<String> keys = new ArrayList<>(run.getHelpSectionKeys());
        keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), TEMPLATES_SECTION);
        run.setHelpSectionKeys(keys);
    }

    public RunCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        prices();
        JobSpec job = target.newJob == null ? null : target.newJobSpec(conn.namespace());
        checkTakeOverOptions(job);
        checkAsOf(job);
        if (noSnapshot) {
            job = liveReads(job);
        }
        JobRequest request = job == null ? new JobRequest.Resume(target.resume, leaseMode())
                : newJob(job).withMode(leaseMode());
        if (job != null && !target.newJob.dryRun) {
            // before connecting: nothing is read or written without consent
            confirm.require(Consent.of(conn, (JobRequest.NewJob) request, -1, prices()));
        }
        Session session = Session.open(conn);
        PrintWriter err = spec.commandLine().getErr();
        Session past = asOf.open(session, err); // refused before any read when the server does not keep that moment
        if (past.past() && !target.newJob.dryRun) {
            job = job.withMapper(job.mapper().withReadTime(past.asOf().time()));
            request = newJob(job).withMode(leaseMode());
        }
        Jobs jobs = hooks.jobs(session, err);
        try {
            return run(jobs, past, job, request, err);
        } catch (JobBusyException e) {
            err.println("keyranger: " + e.getMessage());
            err.flush();
            return EXIT_JOB_BUSY;
        }
    }

    /** The new job the options ask for: over its kind, the kinds named, or every kind. */
    private JobRequest.NewJob newJob(JobSpec job) {
        JobRequest.NewJob request = !target.isGroup() ? JobRequest.job(job) : target.newJob.allKinds
                ? JobRequest.overAllKinds(job) : JobRequest.overKinds(job, List.of(target.newJob.kind.split(",")));
        return target.newJob.includeBookkeeping ? request.withBookkeeping() : request; // refused but over every kind
    }

    /** {@code past}: the session the dry run reads ({@code --as-of}'s, or the live one). */
    private int run(Jobs jobs, Session past, JobSpec job, JobRequest request, PrintWriter err)
            throws InterruptedException {
        JobProgressPrinter progress = new JobProgressPrinter(err);
        PrintWriter out = spec.commandLine().getOut();
        Consumer<String> waiting = message -> {
            err.println(message);
            err.flush();
        };
        if (job != null && target.newJob.dryRun) {
            RunChecks checks = new RunChecks(past, jobs.retries(), err);
            List<String> kinds = jobs.kinds((JobRequest.NewJob) request);
            if (target.isGroup()) {
                for (String kind : kinds) {
                    out.println("== " + kind);
                    checks.printDryRun(job, kind, target.newJob.sample, out, prices());
                }
            } else {
                RunChecks.printQueryPlan(job, out);
                checks.printDryRun(job, job.kind(), target.newJob.sample, out, prices());
            }
            progress.close();
            return 0;
        }
        Preparation prepared = jobs.prepare(request, -1, prices());
        prepared.notices().forEach(w -> err.println("keyranger: warning: " + w));
        err.flush();
        if (job != null) {
            backUp(jobs, job, prepared.kinds(), err);
        }
        JobHandle handle = jobs.launch(prepared, progress, waiting, () -> {
            announce(job, prepared, err);
            err.flush();
        });
        // a restore (resumed here, or given as an import spec) exits as 'restore' does
        return RestoreCommand.exitCode(JobFollow.follow(handle, progress, spec.commandLine(), prices(), report.file,
                job != null && RunChecks.isImport(job) ? "Resume it by running it again with --job-id " + handle.jobId()
                        : "Resume it with: keyranger run --resume " + handle.jobId()), err, null);
    }

    /** What runs, said just before it starts. */
    private static void announce(JobSpec job, Preparation prepared, PrintWriter err) {
        if (prepared.resumesGroup()) {
            KindGroup.Plan group = prepared.group();
            err.println("Job " + group.groupId() + ": resuming " + group.spec().mapper().template() + " over "
                    + group.kinds().size() + " kinds: " + String.join(", ", group.kinds()));
        } else if (job == null) {
            return;
        } else if (prepared.consent().severalKinds()) {
            err.println("Job " + job.jobId() + ": " + job.mapper().template() + " over " + prepared.kinds().size()
                    + " kinds" + (job.namespace().isEmpty() ? "" : " in namespace " + job.namespace())
                    + ", one after another: " + String.join(", ", prepared.kinds()));
            int left = prepared.leftOut().size();
            if (left > 0) {
                err.printf("Left out %d KeyRanger bookkeeping kind%s (jobs, ledgers, counters, undo records: not user "
                        + "data)%s.%n", left, left == 1 ? "" : "s", job.mapper().template().equals("export")
                        ? "; --include-bookkeeping exports them too" : "");
            }
        } else {
            err.println("Job " + job.jobId() + ": " + job.mapper().template() + " over " + job.kind()
                    + (job.namespace().isEmpty() ? "" : " in namespace " + job.namespace())
                    + (prepared.consent().noUndo() ? " (no undo: this job cannot be reverted)" : ""));
            RunChecks.printQueryPlan(job, err);
        }
    }

    /** With --backup-to: a managed export of the job's kinds on the server, waited for and recorded with the job. */
    private void backUp(Jobs jobs, JobSpec job, List<String> kinds, PrintWriter err) {
        String to = target.newJob.backupTo;
        if (to == null) {
            return;
        }
        if (!Mappers.template(job.mapper().template()).writes()) {
            throw new KeyRangerException("--backup-to backs up before a job that writes; '" + job.mapper().template()
                    + "' writes nothing.");
        }
        err.println("Backing up " + String.join(", ", kinds) + " to " + to + " with a managed export on the server…");
        err.flush();
        String url = jobs.backUp(job, kinds, to, message -> {
            err.print("\r" + message);
            err.flush();
        });
        err.println("\rBackup of job " + job.jobId() + ": " + url + " (gcloud datastore import loads it; keyranger "
                + "restore --export opens it once copied here)");
        err.flush();
    }

    private LeaseMode leaseMode() {
        return !takeOver ? LeaseMode.RESUME : force ? LeaseMode.TAKE_OVER_NOW : LeaseMode.TAKE_OVER;
    }

    /** {@code job} reading live data page by page ({@code --no-snapshot}): a new job that only reads, without --as-of. */
    private JobSpec liveReads(JobSpec job) {
        if (job == null || asOf.given() || !Mappers.onlyReads(job.mapper())) {
            throw new KeyRangerException("--no-snapshot goes with a new job that only reads (export, count, count-by) "
                    + "and without --as-of: it reads live data page by page instead of one snapshot.");
        }
        return job.withMapper(job.mapper().withLiveReads());
    }

    /**
     * {@code --as-of} goes with a new job that only reads (an export, a count), or with any job's dry run: the past is
     * read-only. Refused before connecting.
     */
    private void checkAsOf(JobSpec job) {
        if (!asOf.given()) {
            return;
        }
        if (job == null) {
            throw new KeyRangerException("--as-of goes with a new job: a resumed job reads as of the moment it was "
                    + "started with.");
        }
        if (!target.newJob.dryRun && !Mappers.onlyReads(job.mapper())) {
            throw new KeyRangerException("--as-of reads the database as it was, and the past is read-only: '"
                    + job.mapper().template() + "' writes (or reads a file), so it cannot run as of a time. Export or "
                    + "count as of a time, see what this job would do then with --dry-run --as-of, or bring the "
                    + "past back with: keyranger restore --as-of TIME --kind " + job.kind() + ". Nothing was read "
                    + "or written.");
        }
    }

    private void checkTakeOverOptions(JobSpec job) {
        if (force && !takeOver) {
            throw new KeyRangerException("--force goes with --take-over: keyranger run --resume JOB_ID --take-over "
                    + "--force");
        }
        if (takeOver && job != null && !RunChecks.isImport(job)) {
            throw new KeyRangerException("--take-over takes over an existing job: use it with --resume JOB_ID (or "
                    + "with an import's --job-id).");
        }
    }

    /** The prices in settings.json, or the built-in table; read before the job, so a bad file stops nothing midway. */
    private PriceTable prices() {
        if (prices == null) {
            prices = new SettingsStore(context.configDir()).load().priceTable();
        }
        return prices;
    }
}
