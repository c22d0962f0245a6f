package io.keyranger.cli;
import io.keyranger.profile.SettingsStore;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.testhooks.HoldHook;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerExports;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.lease.JobBusyException;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.WriteSafety;
import io.keyranger.launch.ExportSpace;
import io.keyranger.executor.JobLauncher;
import io.keyranger.mapper.Mappers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
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

    @Option(names = "--lease-seconds", hidden = true, defaultValue = "30", paramLabel = "S",
            description = "Testing only: how long this runner's lease lasts without renewal.")
    double leaseSeconds;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the job's final report as JSON.")
    Path report;

    @Option(names = "--hold-after-chunks", hidden = true, paramLabel = "N",
            description = "Testing only: after N chunks, hold every worker inside its next chunk (its transaction open;"
                    + " an import: its next commit), print 'keyranger: held' and go on when a line arrives on standard"
                    + " input.")
    Integer holdAfterChunks;

    @Option(names = "--inject-faults", hidden = true, paramLabel = "rate=R,lost=R,latency=MS,seed=N",
            description = "Testing only: fail a share of Datastore calls, lose commit answers, add latency.")
    String injectFaults;

    @Option(names = "--confirm-project", paramLabel = "ID",
            description = "Required to write to a project that is not an emulator: its id.")
    String confirmProject;

    private PriceTable prices;
    /** How calls before the job retry: as the job's own do. */
    private RetryPolicy retries = RetryPolicy.DEFAULT;

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
        if (job != null && !target.newJob.dryRun) {
            // before connecting: nothing is read or written without consent
            WriteSafety.check(conn, Mappers.template(job.mapper().template()), confirmProject,
                    "add --confirm-project " + conn.projectId() + (target.isGroup() ? " (it " + job.mapper().template()
                            + "s " + (target.newJob.allKinds ? "EVERY kind of the namespace" : "kinds "
                            + target.newJob.kind) + ")" : "") + (job.mapper().undo() ? ""
                            : " (with --no-undo it keeps no undo records: it cannot be reverted)"));
        }
        Session session = Session.open(conn);
        if (injectFaults != null) {
            session = session.wrap(FaultInjector.parse(injectFaults)::wrap);
        }
        retries = injectFaults == null ? RetryPolicy.DEFAULT
                : new RetryPolicy(40, 5, 500);
        JobLauncher launcher = new JobLauncher(session, retries, leaseDuration());
        if (holdAfterChunks != null) {
            launcher.seams(EngineSeams.NONE.withMapper(
                    mapper -> HoldHook.hold(mapper, holdAfterChunks, spec.commandLine().getErr())));
        }
        PrintWriter err = spec.commandLine().getErr();
        try {
            return run(session, job, launcher, err);
        } catch (JobBusyException e) {
            err.println("keyranger: " + e.getMessage());
            err.flush();
            return EXIT_JOB_BUSY;
        }
    }

    private int run(Session session, JobSpec job, JobLauncher launcher, PrintWriter err) throws InterruptedException {
        JobProgressPrinter progress = new JobProgressPrinter(err);
        RunChecks checks = new RunChecks(session, retries, err);
        Consumer<String> waiting = message -> {
            err.println(message);
            err.flush();
        };
        JobHandle handle;
        KindGroup.Plan resumedGroup = target.resume == null ? null
                : KindGroup.load(session.datastore(), target.resume);
        if (resumedGroup != null) {
            err.println("Job " + resumedGroup.groupId() + ": resuming " + resumedGroup.spec().mapper().template()
                    + " over " + resumedGroup.kinds().size() + " kinds: " + String.join(", ", resumedGroup.kinds()));
            err.flush();
            handle = KindGroup.run(launcher, resumedGroup, leaseMode(), progress, waiting);
        } else if (target.resume != null) {
            checks.warnOfPermanentFailures(launcher, target.resume);
            handle = launcher.resume(target.resume, leaseMode(), progress, waiting);
        } else if (target.isGroup()) {
            List<String> kinds = retries.call(() -> KindGroup.kinds(session.datastore(), session.spec().server(), job.namespace(),
                    target.newJob.allKinds ? List.of() : List.of(target.newJob.kind.split(",")), target.newJob.allKinds));
            if (target.newJob.dryRun) {
                for (String kind : kinds) {
                    spec.commandLine().getOut().println("== " + kind);
                    checks.printDryRun(job, kind, target.newJob.sample, spec.commandLine().getOut(), prices());
                }
                progress.close();
                return 0;
            }
            backUp(session, job, kinds, err);
            KindGroup.Plan plan = KindGroup.create(session.datastore(), job.jobId(), kinds, job);
            err.println("Job " + job.jobId() + ": " + job.mapper().template() + " over " + kinds.size() + " kinds"
                    + (job.namespace().isEmpty() ? "" : " in namespace " + job.namespace()) + ", one after another: "
                    + String.join(", ", kinds));
            err.flush();
            handle = KindGroup.run(launcher, plan, leaseMode(), progress, waiting);
        } else if (target.newJob.dryRun) {
            checks.checkKindExists(job);
            RunChecks.printQueryPlan(job, spec.commandLine().getOut());
            checks.printDryRun(job, job.kind(), target.newJob.sample, spec.commandLine().getOut(), prices());
            progress.close();
            return 0;
        } else {
            if (job.mapper().template().equals("export")) {
                // before the first read of the job: the disk must have room for what it will write
                ExportSpace.check(ExportSpace.estimate(
                        session.datastore(), session.order(), job), Path.of(job.mapper().json().path("file").asText()));
            }
            checks.checkKindExists(job);
            checks.warnAboutProperties(job);
            backUp(session, job, List.of(job.kind()), err);
            err.println("Job " + job.jobId() + ": " + job.mapper().template() + " over " + job.kind()
                    + (job.namespace().isEmpty() ? "" : " in namespace " + job.namespace())
                    + (Mappers.template(job.mapper().template()).writes() && !job.mapper().undo()
                    ? " (no undo: this job cannot be reverted)" : ""));
            RunChecks.printQueryPlan(job, err);
            err.flush();
            handle = launcher.start(job, leaseMode(), progress, waiting);
        }
        return JobFollow.exitCode(JobFollow.follow(handle, progress, spec.commandLine(), prices(), report,
                job != null && RunChecks.isImport(job) ? "Resume it by running it again with --job-id " + handle.jobId()
                        : "Resume it with: keyranger run --resume " + handle.jobId()));
    }

    /** With --backup-to: a managed export of the job's kinds on the server, waited for and recorded with the job. */
    private void backUp(Session session, JobSpec job, List<String> kinds, PrintWriter err) {
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
        String url = ServerExports.export(session.spec(), to, job.namespace(), kinds, message -> {
            err.print("\r" + message);
            err.flush();
        }, Cancellation.NEVER);
        ServerExports.record(session.datastore(), job.jobId(), url);
        err.println("\rBackup of job " + job.jobId() + ": " + url + " (gcloud datastore import loads it; keyranger "
                + "restore --export opens it once copied here)");
        err.flush();
    }

    private JobLease.Mode leaseMode() {
        return !takeOver ? JobLease.Mode.RESUME : force ? JobLease.Mode.TAKE_OVER_NOW : JobLease.Mode.TAKE_OVER;
    }

    private Duration leaseDuration() {
        if (!(leaseSeconds >= 0.5 && leaseSeconds <= 3600)) {
            throw new KeyRangerException("--lease-seconds must be between 0.5 and 3600 (got " + leaseSeconds + ").");
        }
        return Duration.ofMillis(Math.round(leaseSeconds * 1000));
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
