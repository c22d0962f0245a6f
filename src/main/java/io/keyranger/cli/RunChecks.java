package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.Session;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.JobLauncher;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.mapper.Template;
import java.io.PrintWriter;
import java.util.List;

/**
 * What {@code run} checks and says before a job reads anything: that its kind exists, its spec's properties against
 * the kind's, a resumed job's failures that retrying will not fix, how a query runs, and a dry run. Warnings go to
 * {@code err}; a check that fails throws with a message the user can act on.
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

    /** Before anything else about it: a job reads a kind that is there (an import may fill a new one). */
    void checkKindExists(JobSpec job) {
        if (!isImport(job)) {
            retries.call(() -> KindGroup.kinds(session.datastore(), session.spec().server(), job.namespace(),
                    List.of(job.kind()), false));
        }
    }

    /** Before the first read: the spec's property parameters against the kind's properties as the server lists them. */
    void warnAboutProperties(JobSpec job) {
        if (Mappers.template(job.mapper().template()).source() != Template.Source.KEY_RANGES) {
            return;
        }
        DatastoreGateway gateway = new DatastoreGateway(
                session.datastore(), session.spec().server());
        List<PropertyInfo> properties = retries.call(() -> gateway.properties(job.namespace(),
                job.kind()));
        SpecChecks.warnings(job.mapper(), job.kind(), properties, !gateway.listsEverything())
                .forEach(w -> err.println("keyranger: warning: " + w));
        err.flush();
    }

    /**
     * Before resuming a job whose ranges failed for a reason retrying will not fix, says so and what to change: the
     * resume still runs (the cause may be fixed now), and fails the same way if it is not.
     */
    void warnOfPermanentFailures(JobLauncher launcher, String jobId) {
        JobReport report;
        try {
            report = launcher.executor().report(jobId);
        } catch (KeyRangerException noSuchJob) {
            return; // the resume itself says so
        }
        for (JobReport.ReasonGroup g : report.failures()) {
            if (g.permanent()) {
                err.printf("keyranger: %,d range%s of %s failed with: %s%n  Resuming retries them, but this reason "
                        + "does not go away by retrying: %s.%n", g.count(), g.count() == 1 ? "" : "s", jobId,
                        g.reason(), JobReport.adviceFor(g.reason()));
            }
        }
        err.flush();
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
        return Mappers.template(mapper.template()).source() == Template.Source.FILE;
    }
}
