package io.keyranger.cli;

import io.keyranger.job.ListedJob;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobStatus;
import io.keyranger.undo.JobUndo;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import io.keyranger.launch.Jobs;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Lists the jobs stored in a database. */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "List jobs, newest first.")
public final class JobsCommand implements Runnable {
    private final KeyRangerCli.Context context;

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Option(names = "--prune", description = "Remove the undo records of jobs that ended more than --keep-days ago; "
            + "those jobs can no longer be reverted.")
    boolean prune;

    @Option(names = "--keep-days", defaultValue = "7", paramLabel = "N",
            description = "How long undo records are kept (default: ${DEFAULT-VALUE}, as Firestore's point-in-time "
                    + "recovery).")
    int keepDays;

    public JobsCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public void run() {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        Jobs jobs = Jobs.on(Session.open(conn));
        PrintWriter out = spec.commandLine().getOut();
        if (keepDays < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--keep-days must be 0 or more.");
        }
        Duration keep = Duration.ofDays(keepDays);
        if (prune) {
            JobUndo.Pruning pruning = jobs.prune(keep, Instant.now());
            List<JobUndo.Pruned> pruned = pruning.removed();
            pruned.forEach(p -> out.printf("Removed the undo records of %s (%,d entities changed, in %,d record%s): "
                    + "it can no longer be reverted.%n", p.jobId(), p.images(), p.records(), p.records() == 1 ? "" : "s"));
            pruning.left().forEach((id, why) -> out.printf("Kept the undo records of %s: %s.%n", id, why));
            out.printf("Pruned %d job%s kept more than %d days.%n", pruned.size(), pruned.size() == 1 ? "" : "s",
                    keepDays);
            out.flush();
            return;
        }
        out.printf("%-44s %-10s %-20s %12s  %s%n", "JOB", "MAPPER", "KIND", "READ", "STATUS");
        Jobs.Listing listed = jobs.list();
        for (ListedJob job : listed.jobs()) {
            long read = jobs.totals(job.spec().jobId()).getOrDefault("read", 0L);
            String undo = jobs.undo(job.spec().jobId(), keep);
            out.printf("%-44s %-10s %-20s %,12d  %s%n", job.spec().jobId(), job.spec().mapper().template(),
                    job.spec().kind(), read, job.describeStatus() + (undo.isEmpty() ? "" : "; " + undo));
            String backup = listed.backups().get(job.spec().jobId());
            if (backup != null) {
                out.printf("    backed up first to %s%n", backup);
            }
            if (job.status() == JobStatus.FAILED) {
                // why it failed, where the user looks; the whole report is in 'run --resume' and --report
                jobs.report(job.spec().jobId()).failures().stream().limit(3).forEach(g -> out.printf(
                        "    %,d range%s failed: %s%n", g.count(), g.count() == 1 ? "" : "s", g.reason()));
            }
        }
        out.flush();
    }
}
