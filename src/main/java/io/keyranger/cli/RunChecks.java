package io.keyranger.cli;

import io.keyranger.job.JobInput;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.Session;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.summary.DryRunPrinter;
import java.io.PrintWriter;

/**
 * What {@code run} and {@code revert} say before a job, besides what the application layer checks (launch's
 * {@code Jobs.prepare}): how a query runs, and a dry run. Warnings go to {@code err}.
 */
final class RunChecks {
    private final Session session;
    private final RetryPolicy retries;
    private final PrintWriter err;

    RunChecks(Session session, RetryPolicy retries, PrintWriter err) {
        this.session = session;
        this.retries = retries;
        this.err = err;
    }

    /** How a job over a query runs: which conditions the server applies in every range, which the client. */
    static void printQueryPlan(JobSpec job, PrintWriter out) {
        if (job.mapper().query() != null) {
            job.mapper().query().explain().forEach(line -> out.println("Query: " + line));
        }
    }

    /** A dry run of {@code job} over {@code kind}: its warnings on stderr, what would change on stdout. */
    void printDryRun(JobSpec job, String kind, int sample, PrintWriter out, PriceTable prices) {
        DryRunner.Result dry = retries.call(() -> new DryRunner(session).run(
                job.namespace(), kind, job.mapper(), Math.max(1, sample)));
        dry.warnings().forEach(w -> err.println("keyranger: warning: " + w));
        err.flush();
        DryRunPrinter.print(dry, out, prices);
    }

    static boolean isImport(JobSpec job) {
        return isImport(job.mapper());
    }

    static boolean isImport(MapperSpec mapper) {
        return JobInput.of(mapper).bringsEntitiesIn();
    }
}
