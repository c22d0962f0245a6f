package io.keyranger.cli;

import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.backup.SideBySide;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.source.RestoreMode;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.WriteSafety;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.lease.JobBusyException;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.keys.KeyFormat;
import io.keyranger.executor.JobLauncher;
import io.keyranger.backup.managed.ManagedExport;
import io.keyranger.mapper.Mappers;
import io.keyranger.profile.SettingsStore;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.testhooks.HoldHook;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Restores a selection of a managed export: an import job whose input is the export, deciding per entity against
 * live data in the commit's transaction (exactly once, resumable by its id, revertible).
 */
@Command(name = "restore", mixinStandardHelpOptions = true, description = "Restore a kind, a query's entities or a "
        + "list of keys from a managed export, leaving entities changed since the export alone unless --mode "
        + "overwrite. A job: progress, Ctrl-C, resume by running it again with its --job-id, revert.")
public final class RestoreCommand implements Callable<Integer> {
    /** The differing properties a dry run shows of each example. */
    private static final int SHOWN = 4;

    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Mixin
    ExportSelection selection = new ExportSelection();

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "skip-changed", description = "What to do with an "
            + "entity changed live since the export: skip-changed (default: leave it, and report it), overwrite "
            + "(restore it too), missing-only (restore only entities that are gone; changed ones are not reported).")
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

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the restore's final report as JSON.")
    Path report;

    @Option(names = "--confirm-project", paramLabel = "ID",
            description = "Required to write to a project that is not an emulator: its id.")
    String confirmProject;

    @Option(names = "--inject-faults", hidden = true, paramLabel = "rate=R,lost=R,latency=MS,seed=N",
            description = "Testing only: fail a share of Datastore calls, lose commit answers, add latency.")
    String injectFaults;

    @Option(names = "--hold-after-chunks", hidden = true, paramLabel = "N",
            description = "Testing only: after N chunks, hold inside the next commit and print 'keyranger: held'.")
    Integer holdAfterChunks;

    public RestoreCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        RestoreMode restoreMode = RestoreMode.of(mode);
        String kind = selection.kind(conn.projectId(), conn.namespace());
        JobSpec job = spec(conn, kind, restoreMode);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PriceTable prices = new SettingsStore(context.configDir()).load()
                .priceTable();
        if (dryRun) {
            Session session = Session.open(conn);
            dryRun(session, kind, restoreMode, out, err, prices);
            return 0;
        }
        WriteSafety.check(conn, Mappers.template("import"), confirmProject, "add --confirm-project " + conn.projectId()
                + (noUndo ? " (with --no-undo it keeps no undo records: it cannot be reverted)" : ""));
        Session session = Session.open(conn);
        RetryPolicy retries = RetryPolicy.DEFAULT;
        FaultInjector faults = null;
        if (injectFaults != null) {
            faults = FaultInjector.parse(injectFaults);
            session = session.wrap(faults::wrap);
            retries = new RetryPolicy(40, 5, 500);
        }
        JobLauncher launcher = new JobLauncher(session, retries, JobLease.DEFAULT_DURATION);
        if (holdAfterChunks != null) {
            launcher.seams(EngineSeams.NONE.withMapper(mapper -> HoldHook.hold(mapper, holdAfterChunks, err)));
        }
        JobProgressPrinter progress = new JobProgressPrinter(err);
        err.println("Job " + job.jobId() + ": restoring " + kind + (conn.namespace().isEmpty() ? "" : " in namespace "
                + conn.namespace()) + " from " + selection.export + " (" + restoreMode.id() + ")"
                + (noUndo ? " (no undo: this job cannot be reverted)" : ""));
        err.flush();
        JobHandle handle;
        try {
            handle = launcher.start(job, takeOver ? JobLease.Mode.TAKE_OVER
                    : JobLease.Mode.RESUME, progress, message -> {
                        err.println(message);
                        err.flush();
                    });
        } catch (JobBusyException e) {
            progress.close();
            err.println("keyranger: " + e.getMessage());
            err.flush();
            return RunCommand.EXIT_JOB_BUSY;
        }
        JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices, report,
                "Resume it by running it again with --job-id " + handle.jobId());
        if (faults != null) {
            err.printf("keyranger: injected %d failed calls and %d lost commit answers%n", faults.failures(),
                    faults.lostCommits());
        }
        long changed = result.total(JobReport.SKIPPED_PREFIX + RestoreMode.CHANGED);
        if (result.status() == JobStatus.DONE && changed > 0) {
            err.printf("keyranger: %,d entit%s changed since the export and kept %s live values (see 'skipped' "
                    + "above); --mode overwrite restores them too.%n", changed, changed == 1 ? "y" : "ies",
                    changed == 1 ? "its" : "their");
            err.flush();
            return RevertCommand.EXIT_CONFLICTS;
        }
        return JobFollow.exitCode(result);
    }

    private JobSpec spec(ConnectionSpec conn, String kind, RestoreMode restoreMode) {
        JobSpec job = new RestoreSpec(selection.export, conn.namespace(), kind, restoreMode,
                selection.gql, selection.keys, !noUndo).job(jobId);
        return new JobSpec(job.jobId(), job.namespace(), job.kind(), job.mapper(), size.shards, size.workers,
                size.pageSize, size.qps);
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
        long restores = r.removed() + (restoreMode == RestoreMode.OVERWRITE ? r.changed() : 0);
        out.printf("Dry run of restoring %s from %s (%s); nothing was written.%n", kind, selection.export,
                restoreMode.id());
        out.printf("Compared %,d entities of the export with live data in %,d lookup%s:%n", r.compared(), r.lookups(),
                r.lookups() == 1 ? "" : "s");
        out.printf("  would restore %,d missing since the export%n", r.removed());
        switch (restoreMode) {
            case OVERWRITE -> out.printf("  would overwrite %,d changed since the export%n", r.changed());
            case SKIP_CHANGED -> out.printf("  would leave %,d changed since the export (skipped: %s)%n", r.changed(),
                    RestoreMode.CHANGED);
            case MISSING_ONLY -> out.printf("  would leave %,d present live (%s)%n", r.changed(), RestoreMode.PRESENT);
        }
        out.printf("  %,d already as in the export%n", r.same());
        out.printf("  %-36s %-20s %-26s %s%n", "KEY", "PROPERTY", "NOW", "AFTER");
        for (ExportDiff.Example e : r.examples()) {
            boolean writes = e.now() == null || restoreMode == RestoreMode.OVERWRITE;
            List<SideBySide.Row> rows = SideBySide.of(e.before(), e.now()).stream()
                    .filter(SideBySide.Row::differs).toList();
            for (SideBySide.Row row : rows.subList(0, Math.min(rows.size(), SHOWN))) {
                out.printf("  %-36s %-20s %-26s %s%n", cut(KeyFormat.format(e.key()), 36), cut(row.property(), 20),
                        cut(row.live(), 26), writes ? row.exported() : "(left as now)");
            }
            if (rows.size() > SHOWN) {
                out.printf("  %-36s ... and %d more properties%n", "", rows.size() - SHOWN);
            }
        }
        long undo = noUndo ? 0 : restores;
        out.printf("Whole restore: %s%n", prices.describe(r.compared(), restores + undo, 0));
        if (undo > 0) {
            out.printf("Writes include %,d undo records, so that the restore can be reverted (--no-undo: none).%n",
                    undo);
        }
        out.flush();
    }

    private static String cut(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
