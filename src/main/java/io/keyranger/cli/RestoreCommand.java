package io.keyranger.cli;

import io.keyranger.job.LeaseMode;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RestoreMode;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.backup.managed.ManagedExport;
import io.keyranger.report.DryRunPrinter;
import io.keyranger.report.RestoreDryRun;
import io.keyranger.profile.SettingsStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
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
        JobRequest.NewJob request = JobRequest.job(job).withMode(takeOver ? LeaseMode.TAKE_OVER
                : LeaseMode.RESUME);
        confirm.require(Consent.of(conn, request, -1, prices));
        Jobs jobs = hooks.jobs(Session.open(conn), err);
        JobProgressPrinter progress = new JobProgressPrinter(err);
        err.println("Job " + job.jobId() + ": restoring " + kind + (conn.namespace().isEmpty() ? "" : " in namespace "
                + conn.namespace()) + " from " + selection.export + " (" + restoreMode.id() + ")"
                + (noUndo ? " (no undo: this job cannot be reverted)" : ""));
        err.flush();
        JobHandle handle;
        try {
            handle = jobs.launch(jobs.prepare(request, -1, prices), progress, message -> {
                err.println(message);
                err.flush();
            });
        } catch (JobBusyException e) {
            progress.close();
            err.println("keyranger: " + e.getMessage());
            err.flush();
            return RunCommand.EXIT_JOB_BUSY;
        }
        JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices, report.file,
                "Resume it by running it again with --job-id " + handle.jobId());
        hooks.sayInjected(err);
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
        DryRunPrinter.printRestore(RestoreDryRun.of(r, restoreMode, !noUndo), kind, selection.export.toString(), out,
                prices);
    }
}
