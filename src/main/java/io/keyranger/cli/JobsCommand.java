package io.keyranger.cli;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
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

    public JobsCommand(KeyRangerCli.Context context) {
        this.context = context;
    }

    @Override
    public void run() {
        ConnectionSpec conn = connection.resolve(context.profiles(), context.env());
        Session session = Session.open(conn);
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(session.datastore(), session.order(),
                session.limits());
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-44s %-10s %-20s %12s  %s%n", "JOB", "MAPPER", "KIND", "READ", "STATUS");
        for (AdaptiveSplitExecutor.JobSummary job : executor.jobs()) {
            long read = executor.totals(job.spec().jobId()).getOrDefault("read", 0L);
            out.printf("%-44s %-10s %-20s %,12d  %s%n", job.spec().jobId(), job.spec().mapper().template(),
                    job.spec().kind(), read, job.describeStatus());
            if (job.status() == io.keyranger.executor.job.JobStatus.FAILED) {
                // why it failed, where the user looks; the whole report is in 'run --resume' and --report
                executor.report(job.spec().jobId()).failures().stream().limit(3).forEach(g -> out.printf(
                        "    %,d range%s failed: %s%n", g.count(), g.count() == 1 ? "" : "s", g.reason()));
            }
        }
        out.flush();
    }
}
