package io.keyranger.cli;

import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.launch.Preparation;
import io.keyranger.mapper.Mappers;
import io.keyranger.profile.SettingsStore;
import io.keyranger.summary.JobOutcome;
import io.keyranger.undo.JobUndo;
import io.keyranger.formats.undo.UndoRecords;
import java.io.PrintWriter;
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

    @Mixin
    ReportFile report = new ReportFile();

    @Mixin
    ConfirmProject confirm = new ConfirmProject();

    public RevertCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        JobRequest.Revert request = JobRequest.revert(jobId, new JobUndo.RevertSettings(revertId, force, size.shards,
                size.workers, size.pageSize, size.qps));
        if (!dryRun) {
            confirm.require(Consent.of(conn, request));
        }
        String id = request.settings().revertId(); // named by the request
        Jobs jobs = Jobs.on(Session.open(conn));
        Preparation prepared = jobs.prepare(request, -1, PriceTable.BUILT_IN);
        List<JobSpec> reverted = prepared.reverted();
        PriceTable prices = new SettingsStore(context.configDir()).load()
                .priceTable();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun) {
            JobSpec first = JobUndo.revertSpec(reverted.get(0), request.settings());
            RunChecks checks = new RunChecks(jobs.session(), jobs.retries(), err);
            for (JobSpec job : reverted) {
                out.println("== revert of " + job.jobId() + " (" + job.mapper().template() + " over "
                        + job.kind() + ")");
                checks.printDryRun(first, UndoRecords.kind(job.jobId()), sample, out, prices);
            }
            return 0;
        }
        JobProgressPrinter progress = new JobProgressPrinter(err);
        err.println("Job " + id + ": reverting job " + jobId + " (" + reverted.get(0).mapper().template()
                + (reverted.size() == 1 ? " over " + reverted.get(0).kind() : " over " + reverted.size()
                + " kinds") + ")" + (force ? ", over later changes too" : ""));
        err.flush();
        JobHandle handle = jobs.launch(prepared, progress, err::println);
        JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices,
                report.file, "Resume it with: keyranger run --resume " + id);
        long conflicts = result.total(Mappers.revertConflictCounter());
        boolean leftAlone = result.status() == JobStatus.DONE && JobOutcome.leftAlone(result.totals()) > 0;
        if (leftAlone) {
            err.printf("keyranger: %,d entit%s changed since job %s and kept their values (see 'skipped' above); "
                    + "revert --force %s restores them too.%n", conflicts, conflicts == 1 ? "y" : "ies", jobId, jobId);
            err.flush();
        }
        int code = JobFollow.exitCode(result, err); // what it could not restore outranks what it left alone
        return code == 0 && leftAlone ? EXIT_CONFLICTS : code;
    }
}
