package io.keyranger.cli;

import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.job.WriteSafety;
import io.keyranger.executor.JobLauncher;
import io.keyranger.mapper.Mappers;
import io.keyranger.profile.SettingsStore;
import io.keyranger.undo.JobUndo;
import io.keyranger.undo.records.UndoRecords;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Takes a finished, cancelled or failed job back: a job of its own over the job's undo records. */
@Command(name = "revert", mixinStandardHelpOptions = true, description = "Undo exactly what a job changed, leaving "
        + "entities changed since then alone (they are reported as conflicts). A job of its own: progress, Ctrl-C, "
        + "resume with 'run --resume', and it can be reverted too.")
public final class RevertCommand implements Callable<Integer> {
    /** The revert ran to its end, but entities changed since the job kept their values: it is not whole. */
    public static final int EXIT_CONFLICTS = 7;

    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "The job to revert (one kind, or several).")
    String jobId;

    @Option(names = "--force", description = "Restore entities changed since the job too, over those changes.")
    boolean force;

    @Option(names = "--dry-run", description = "Show what would be restored, skipped and in conflict on a sample, and "
            + "the cost; write nothing.")
    boolean dryRun;

    @Option(names = "--sample", defaultValue = "20", paramLabel = "N",
            description = "Entities in the dry run (default: ${DEFAULT-VALUE}).")
    int sample;

    @Mixin
    JobSize size = new JobSize();

    @Option(names = "--job-id", paramLabel = "ID", description = "The revert job's id (default: revert-JOB-TIME-RANDOM).")
    String revertId;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the revert's final report as JSON.")
    Path report;

    @Option(names = "--confirm-project", paramLabel = "ID",
            description = "Required to write to a project that is not an emulator: its id.")
    String confirmProject;

    public RevertCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        if (!dryRun) {
            WriteSafety.check(conn, Mappers.template("revert"), confirmProject, "add --confirm-project "
                    + conn.projectId());
        }
        Session session = Session.open(conn);
        RetryPolicy retries = RetryPolicy.DEFAULT;
        List<JobStore.StoredJob> jobs = retries.call(() -> JobUndo.revertible(session.datastore(), jobId));
        String id = revertId != null ? revertId : JobUndo.newRevertId(jobId);
        JobUndo.RevertSettings settings = new JobUndo.RevertSettings(id, force, size.shards, size.workers,
                size.pageSize, size.qps);
        JobSpec first = JobUndo.revertSpec(jobs.get(0), settings);
        PriceTable prices = new SettingsStore(context.configDir()).load()
                .priceTable();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunChecks checks = new RunChecks(session, retries, err);
        if (dryRun) {
            for (JobStore.StoredJob job : jobs) {
                out.println("== revert of " + job.spec().jobId() + " (" + job.spec().mapper().template() + " over "
                        + job.spec().kind() + ")");
                checks.printDryRun(first, UndoRecords.kind(job.spec().jobId()), sample, out, prices);
            }
            return 0;
        }
        JobLauncher launcher = new JobLauncher(session, retries, JobLease.DEFAULT_DURATION);
        JobProgressPrinter progress = new JobProgressPrinter(err);
        err.println("Job " + id + ": reverting job " + jobId + " (" + jobs.get(0).spec().mapper().template()
                + (jobs.size() == 1 ? " over " + jobs.get(0).spec().kind() : " over " + jobs.size() + " kinds") + ")"
                + (force ? ", over later changes too" : ""));
        err.flush();
        JobHandle handle = JobUndo.startRevert(launcher, jobId, settings, progress, err::println);
        JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices,
                report, "Resume it with: keyranger run --resume " + id);
        long conflicts = result.total(Mappers.revertConflictCounter());
        if (result.status() == JobStatus.DONE && conflicts > 0) {
            err.printf("keyranger: %,d entit%s changed since job %s and kept their values (see 'skipped' above); "
                    + "revert --force %s restores them too.%n", conflicts, conflicts == 1 ? "y" : "ies", jobId, jobId);
            err.flush();
            return EXIT_CONFLICTS;
        }
        return JobFollow.exitCode(result);
    }
}
