package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.backup.PastRestoreDryRun;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.job.LeaseMode;
import io.keyranger.job.PastRestore;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.datastore.MixedArrays;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RestoreMode;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.launch.PastKinds;
import io.keyranger.launch.Preparation;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.DryRunPrinter;
import io.keyranger.summary.RestoreDryRun;
import io.keyranger.profile.SettingsStore;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.cel.MaskFunctions;
import java.io.IOException;
import java.nio.file.Path;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Restores a selection of a managed export, of the database as it was at a past moment ({@code --as-of}, with
 * {@code --until} undoing a window of damage), or of another database ({@code --from-project}…): an import job, deciding per entity against live data in the commit's
 * transaction (exactly once, resumable by its id, revertible).
 */
@Command(name = "restore", mixinStandardHelpOptions = true, description = "Restore a kind, a query's entities or a "
        + "list of keys from a managed export (--export), from the database as it was at a past moment (--as-of), "
        + "or from another database (--from-project, read at one moment), leaving entities changed since alone "
        + "unless --mode overwrite; with --until, undo a window of damage, "
        + "leaving later writes alone. A job: progress, Ctrl-C, resume by running it again with its --job-id (or "
        + "'keyranger run --resume ID'), revert.")
public final class RestoreCommand implements Callable<Integer> {
    /** Options of the restore job itself, left out of the dry run it prints. */
    private static final Set<String> NOT_IN_DRY_RUN = Set.of("--dry-run", "--job-id", "--take-over", "--report",
            "--confirm-project");
    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Mixin
    ExportSelection selection = new ExportSelection();

    @Mixin
    AsOf asOf = new AsOf();

    @Mixin
    SourceOptions from = new SourceOptions();

    @Option(names = "--until", paramLabel = "TIME", description = "With --as-of: undo the window of damage from "
            + "--as-of to TIME. Each entity still as it was at TIME goes back to its state at --as-of (deleted ones "
            + "come back, changed ones get their old values); entities written again after TIME are left alone and "
            + "named.")
    String until;

    @Option(names = "--remove-added", description = "With --as-of: also delete the entities that did not exist at "
            + "--as-of (with --until: those created in the window; else needs --mode overwrite). With --from-…: "
            + "delete what the kind holds here and the source does not (with --mode overwrite), so that the "
            + "selection ends equal to the source's.")
    boolean removeAdded;

    @Option(names = "--sample", paramLabel = "PERCENT", description = "With --from-…: copy only this percentage of "
            + "the source's keys, chosen by a hash of each key's path (the same ones every run).")
    Double sample;

    @Option(names = "--transform", paramLabel = "FILE", description = "With --from-…: a spec of the transform "
            + "template ({\"template\": \"transform\", \"set\": {...}, \"remove\": [...]}) applied to each entity on "
            + "the way. Masking: keyed_hash(v) (needs " + MaskFunctions.KEY_VARIABLE + "), fake_name(v), fake_email(v), "
            + "null. An entity it fails on is not copied.")
    Path transform;

    @Option(names = "--to-kind", paramLabel = "KIND", description = "With --from-…: write the source's kind here "
            + "under this name; keys, and key values of that kind, are renamed.")
    String toKind;

    @Option(names = "--with-ancestors", description = "With --from-…: bring each entity taken with its ancestors "
            + "that the source holds (of any kind, transformed and decided by --mode as it is), so that a sample, a "
            + "query or a keys file copies whole entity groups.")
    boolean withAncestors;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "skip-changed", description = "What to do with an "
            + "entity changed live since the export (or --as-of): skip-changed (default: leave it, and report it), "
            + "overwrite (restore it too), missing-only (restore only entities that are gone; changed ones are not "
            + "reported). Not with --until, which decides by the state at --until.")
    String mode;

    @Option(names = "--dry-run", description = "Compare the selection with live data and show what would be restored, "
            + "left alone and overwritten, before and after, and the cost; write nothing.")
    boolean dryRun;

    @Option(names = "--job-id", paramLabel = "ID", description = "The restore's id (default: restore-KIND-TIME-RANDOM); "
            + "running it again with the same id and input resumes it (other input is refused).")
    String jobId;

    @Mixin
    JobSize size = new JobSize();

    @Option(names = "--no-undo", description = "Keep no undo records: it writes less but cannot be reverted.")
    boolean noUndo;

    @Option(names = "--take-over", description = "With --job-id: take the restore from the runner that holds it, once "
            + "that runner's lease runs out.")
    boolean takeOver;

    @Mixin
    ReportFile report = new ReportFile();

    @Mixin
    ConfirmProject confirm = new ConfirmProject();

    @Mixin
    TestHooks hooks = new TestHooks();

    public RestoreCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        selection.requireOneSource(asOf.given(), from, "Restore from");
        if (from.given() && until != null) {
            throw new KeyRangerException("--until undoes a window of the connected database's own past; with "
                    + "--from-… the source is read at one moment (--as-of, else its start): leave --until out.");
        }
        if (!from.given() && (sample != null || transform != null || toKind != null || withAncestors)) {
            throw new KeyRangerException((sample != null ? "--sample" : transform != null ? "--transform"
                    : toKind != null ? "--to-kind" : "--with-ancestors") + " shapes a copy from another database: give --from-project (with "
                    + "--from-database or --from-namespace as needed).");
        }
        if (toKind != null) {
            ConnectionRules.kind(toKind);
            BookkeepingKinds.requireUserKind(toKind);
        }
        if (!asOf.given() && !from.given() && (until != null || removeAdded)) {
            throw new KeyRangerException((until != null ? "--until" : "--remove-added") + " restores from the "
                    + "database's past: give --as-of TIME (not --export).");
        }
        if (until != null && spec.commandLine().getParseResult().hasMatchedOption("--mode")) {
            throw new KeyRangerException("--until decides each entity by its state at --until (as then: restored; "
                    + "written again after: left alone); --mode does not apply with it.");
        }
        RestoreMode restoreMode = until != null ? RestoreMode.OVERWRITE : RestoreMode.of(mode);
        String kind = selection.kind(conn.projectId(), conn.namespace());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PriceTable prices = new SettingsStore(context.configDir()).load()
                .priceTable();
        Session live = Session.open(conn);
        StringWriter notes = new StringWriter(); // what is read, said once the job is not refused
        Session source = null;
        Past past = null;
        if (from.given()) {
            PrintWriter told = new PrintWriter(notes);
            source = SourceDatabase.open(live, from.resolve(conn, context.profiles()), asOf.time, note -> {
                told.println(note);
                told.flush();
            });
            SourceDatabase.requireHeld(source, kind);
        } else if (asOf.given()) {
            past = past(live, new PrintWriter(notes));
        }
        JobSpec job = spec(conn, kind, restoreMode, past, source);
        String origin = source != null ? Partition.of(source.spec()).describe() : past == null
                ? selection.export.toString() : past.describe();
        if (source == null) {
            PastKinds.requireHeld(live, job); // before anything is said of a job (Jobs#prepare checks it too)
        }
        if (dryRun) {
            err.print(notes);
            if (past != null || source != null) {
                PastRestoreDryRun dry = PastRestoreDryRun.of(live, job, n -> {
                    err.printf("\rCompared %,d keys…", n);
                    err.flush();
                }, Cancellation.NEVER);
                err.println();
                DryRunPrinter.printPastRestore(dry, kind, origin, out, prices);
            } else {
                dryRun(live, kind, restoreMode, out, err, prices);
            }
            return 0;
        }
        JobRequest.NewJob request = JobRequest.job(job).withMode(takeOver ? LeaseMode.TAKE_OVER
                : LeaseMode.RESUME);
        confirm.require(Consent.of(conn, request, -1, prices));
        Jobs jobs = hooks.jobs(live, err);
        Preparation prepared = jobs.prepare(request, -1, prices); // refuses it before anything is said of it
        JobProgressPrinter progress = new JobProgressPrinter(err);
        String resume = resumeHint(job.jobId(), past, source);
        boolean resumesById = past != null || source != null;
        JobHandle handle;
        try {
            // said once the engine's checks passed (an export read whole, a stored job of the id found the same)
            handle = jobs.launch(prepared, progress, message -> {
                err.println(message);
                err.flush();
            }, () -> {
                err.print(notes);
                err.println("Job " + job.jobId() + ": restoring " + kind + (toKind == null || toKind.equals(kind) ? ""
                        : " as " + toKind) + (conn.namespace().isEmpty() ? ""
                        : " in namespace " + conn.namespace()) + " from " + origin + (until != null ? ""
                        : " (" + restoreMode.id() + ")") + (noUndo ? " (no undo: this job cannot be reverted)" : ""));
                if (resumesById) {
                    err.println("If it stops, " + Character.toLowerCase(resume.charAt(0)) + resume.substring(1));
                }
                err.flush();
            });
        } catch (JobBusyException e) {
            progress.close();
            err.println("keyranger: " + e.getMessage());
            err.flush();
            return RunCommand.EXIT_JOB_BUSY;
        }
        JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices, report.file,
                resume);
        hooks.sayInjected(err);
        return exitCode(result, err, past == null || past.until() == null ? null
                : dryRunCommand(past));
    }

    /**
     * How a restore that ran exits, from an export or from the past, here or resumed by {@code run --resume}:
     * {@link RevertCommand#EXIT_CONFLICTS} when it is done but left alone entities it was asked for (changed since
     * the source, with skip-changed; written again after --until), said on {@code err}; else as any job (which
     * outranks it: entities it could not write). {@code dryRun} is the dry run that names every later write, or null
     * when not known here.
     */
    static int exitCode(JobResult result, PrintWriter err, String dryRun) {
        boolean leftAlone = false;
        if (result.status() == JobStatus.DONE) {
            for (RestoreMode.Backup from : RestoreMode.Backup.values()) {
                long changed = result.total(JobReport.SKIPPED_PREFIX + from.changed());
                if (changed > 0) {
                    err.printf("keyranger: %,d entit%s changed since %s and kept %s live values (see 'skipped' "
                            + "above); --mode overwrite restores them too.%n", changed, changed == 1 ? "y" : "ies",
                            from == RestoreMode.Backup.EXPORT ? "the export"
                                    : from == RestoreMode.Backup.PAST ? "--as-of" : "the source",
                            changed == 1 ? "its" : "their");
                    leftAlone = true;
                }
            }
            long mixed = result.total(MixedArrays.NOT_KEPT);
            if (mixed > 0) {
                err.println("keyranger: " + MixedArrays.warning(mixed));
            }
            long later = result.total(JobReport.SKIPPED_PREFIX + PastRestore.WRITTEN_AFTER);
            if (later > 0) {
                err.printf("keyranger: %,d entit%s written again after --until kept %s later values: good later "
                        + "writes are left alone. 'skipped' above names the first few; %s%n", later,
                        later == 1 ? "y" : "ies", later == 1 ? "its" : "their", dryRun == null
                        ? "the restore's dry run (restore --dry-run with its --as-of and --until) names every one."
                        : "this names every one (and any entity written since), writing nothing:\n  " + dryRun);
                leftAlone = true;
            }
            err.flush();
            leftAlone = JobOutcome.leftAlone(result.totals()) > 0; // the policy every front end shares, Beam's too
        }
        int code = JobFollow.exitCode(result, err);
        return code == 0 && leftAlone ? RevertCommand.EXIT_CONFLICTS : code;
    }

    /**
     * How to resume the restore: by running it again with its id, or, for one from the past, by its id alone (the job
     * keeps the moments it reads, which a relative --as-of or --until would not give again) or with those moments as
     * absolute times.
     */
    private static String resumeHint(String jobId, Past past, Session source) {
        if (source != null) {
            return "Resume it with: keyranger run --resume " + jobId + " (it keeps its source and the moment it "
                    + "reads" + (source.past() ? ", " + source.asOf().time() : "") + ")";
        }
        if (past == null) {
            return "Resume it by running it again with --job-id " + jobId;
        }
        return "Resume it with: keyranger run --resume " + jobId + " (or this restore again with --job-id " + jobId
                + " --as-of " + past.asOf().time() + (past.until() == null ? "" : " --until " + past.until().time())
                + ": the moments it reads, as absolute times)";
    }

    /**
     * This restore's dry run, with its moments as absolute times: run after the restore, it names every entity left
     * alone as written again after --until (what the restore put back is then as at --as-of, and counted so). Built
     * from the options given (the connection and the selection included), less those of the job itself, each word
     * quoted for a POSIX shell.
     */
    private String dryRunCommand(Past past) {
        List<String> words = new ArrayList<>(List.of("keyranger", spec.name()));
        for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            String name = option.longestName();
            if (option.hidden() || NOT_IN_DRY_RUN.contains(name)) {
                continue;
            }
            if (option.arity().max() == 0) {
                words.add(name);
            } else if (name.equals("--as-of") || name.equals("--until")) {
                words.addAll(List.of(name, (name.equals("--as-of") ? past.asOf() : past.until()).time().toString()));
            } else {
                option.originalStringValues().forEach(value -> words.addAll(List.of(name, value)));
            }
        }
        words.add("--dry-run");
        return ShellWords.line(words);
    }

    /** The moments of a restore from the past, checked against what the server keeps before anything is read. */
    private record Past(PointInTime asOf, PointInTime until) {
        String describe() {
            return "the database as of " + asOf.describe() + (until == null ? "" : " (undoing what was written until "
                    + until.describe() + ")");
        }
    }

    private Past past(Session live, PrintWriter err) {
        PointInTime at = asOf.open(live, err).asOf();
        if (until == null) {
            return new Past(at, null);
        }
        PointInTime end = ReadWindow.open(live, until, note -> {
            err.println(note);
            err.flush();
        }).asOf();
        return new Past(at, end); // in order, or refused by the restore's spec (RestoreSpec#job)
    }

    private JobSpec spec(ConnectionSpec conn, String kind, RestoreMode restoreMode, Past past, Session source) {
        RestoreSpec restore = source != null ? RestoreSpec.fromDatabase(source.spec(), source.asOf(), removeAdded,
                conn.namespace(), kind, restoreMode, selection.gql, selection.keys, !noUndo)
                .shaped(sample, transform == null ? null : transformSpec(transform)).toKind(toKind)
                .withAncestors(withAncestors)
                : past == null ? new RestoreSpec(selection.export, conn.namespace(), kind, restoreMode,
                selection.gql, selection.keys, !noUndo)
                : RestoreSpec.fromPast(past.asOf(), past.until(), removeAdded, conn.namespace(), kind, restoreMode,
                selection.gql, selection.keys, !noUndo);
        JobSpec job = restore.job(jobId);
        return new JobSpec(job.jobId(), job.namespace(), job.kind(), job.mapper(), size.shards, size.workers,
                size.pageSize, size.qps);
    }

    /** The transform spec in {@code file}: one of the transform template, refused otherwise. */
    private static MapperSpec transformSpec(Path file) {
        MapperSpec spec = MapperSpec.read(file);
        if (!spec.template().equals("transform")) {
            throw new KeyRangerException("--transform " + file + " is a spec of the " + spec.template() + " template: "
                    + "give one of the transform template, {\"template\": \"transform\", \"set\": {\"email\": "
                    + "\"fake_email(key)\"}, \"remove\": [\"ssn\"]}.");
        }
        Mappers.template("transform").validate(spec);
        return spec;
    }

    /** Compares the selection with live data in pages of keys and says what the restore would do, and its cost. */
    private void dryRun(Session session, String kind, RestoreMode restoreMode, PrintWriter out, PrintWriter err,
                        PriceTable prices) throws IOException {
        ConnectionSpec conn = session.spec();
        ExportDiff diff = ExportDiff.of(session, ManagedExport.open(selection.export),
                conn.namespace(), kind, selection.gql, selection.keys);
        ExportDiff.Result r = diff.run(false, n -> {
            err.printf("\rCompared %,d entities…", n);
            err.flush();
        }, Cancellation.NEVER);
        err.println();
        DryRunPrinter.printRestore(RestoreDryRun.of(r, restoreMode, !noUndo, session.limits()), kind,
                selection.export.toString(), out, prices);
    }
}
