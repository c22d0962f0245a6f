package io.keyranger.launch;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.job.WriteSafety;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.summary.Operations;
import java.util.List;

/**
 * What the user must agree to before a job runs, decided from the request and the connection alone (nothing is read,
 * so the command line decides it before it connects, and the app on the FX thread): whether it is refused (a job that
 * writes, on a read-only connection), whether the project's id must be typed (it writes to a project that is not an
 * emulator), whether the kinds of a job over several must be confirmed (named), whether it can be reverted, its
 * estimated cost, and whether an export of the kind is offered first (delete and increment). The command line turns it
 * into messages and exit codes, the app into dialogs.
 *
 * @param template the template that runs
 * @param project  the project it runs on
 * @param verdict  the write-safety rule's verdict ({@link WriteSafety})
 * @param kinds    the kinds of a job over several kinds as named (empty with {@code allKinds}, or for one kind)
 * @param allKinds whether it runs over every kind of the namespace
 * @param undo     whether it keeps undo records (a job that writes without them cannot be reverted)
 * @param estimate the estimated operations and price of a job over one kind ({@link Operations#estimate}), or null
 */
public record Consent(Template template, String project, WriteSafety.Verdict verdict, List<String> kinds,
                      boolean allKinds, boolean undo, String estimate) {
    public Consent {
        kinds = List.copyOf(kinds);
    }

    /** For a new job, over a kind whose count is {@code count} (-1: not known), estimated at {@code prices}. */
    public static Consent of(ConnectionSpec connection, JobRequest.NewJob job, long count, PriceTable prices) {
        return of(connection, job.spec().mapper(), job.spec().pageSize(), job.kinds(), job.allKinds(), count, prices,
                null);
    }

    /** For a revert, whose cost is not known before it reads the job's undo records. */
    public static Consent of(ConnectionSpec connection, JobRequest.Revert revert) {
        return of(connection, Mappers.revertSpec(revert.jobId(), revert.settings().force()), 0, List.of(), false, -1,
                PriceTable.BUILT_IN, null);
    }

    /**
     * For {@code mapper}, in pages of {@code pageSize} keys (0: not known), over {@code kinds} (several, or
     * {@code allKinds}; empty: one kind, whose count is {@code count}, -1 when not known, and whose dry run of this
     * very spec is {@code dryRun}, or null).
     */
    public static Consent of(ConnectionSpec connection, MapperSpec mapper, int pageSize, List<String> kinds,
                             boolean allKinds, long count, PriceTable prices, DryRunner.Result dryRun) {
        Template template = Mappers.template(mapper.template());
        boolean oneKind = kinds.isEmpty() && !allKinds;
        return new Consent(template, connection.projectId(), WriteSafety.verdict(connection, template), kinds,
                allKinds, mapper.undo(), oneKind ? estimate(mapper, pageSize, count, dryRun, prices, connection.server().limits()) : null);
    }

    /**
     * The estimated operations and price of the job ({@link Operations#estimate}: its dry run's, or every one of the
     * kind's {@code count} entities changed), counted as the dry run and the finished job count them; null when not
     * known.
     */
    static String estimate(MapperSpec mapper, int pageSize, long count, DryRunner.Result dryRun, PriceTable prices,
                           ServerLimits limits) {
        Operations operations = Operations.estimate(mapper, pageSize, count, dryRun, limits);
        if (operations == null) {
            return null;
        }
        return (dryRun != null ? "Estimated by its dry run, over " + dryRun.total().describe()
                : "Estimated for " + String.format("%,d", count) + " entities") + ": " + operations.describe(prices);
    }

    /** Whether the job writes: only then is anything asked. */
    public boolean writes() {
        return template.writes();
    }

    /** Why it must not run (a read-only connection), or null. */
    public String refusal() {
        return verdict == WriteSafety.Verdict.READ_ONLY ? WriteSafety.readOnly(template, null).getMessage() : null;
    }

    /** Whether the project's id must be typed to go ahead: it writes to a project that is not an emulator. */
    public boolean confirmsProject() {
        return verdict == WriteSafety.Verdict.CONFIRM_PROJECT;
    }

    /** Whether the user must confirm the kinds it changes, named ({@link #kinds}), before it starts. */
    public boolean confirmsKinds() {
        return writes() && refusal() == null && severalKinds();
    }

    /** Whether it runs over several kinds, kind after kind. */
    public boolean severalKinds() {
        return allKinds || !kinds.isEmpty();
    }

    /** Whether it writes without undo records: then it cannot be reverted, and the user is told so. */
    public boolean noUndo() {
        return writes() && !undo;
    }

    /** Whether an export of the kind is offered before it runs (delete and increment, over one kind). */
    public boolean backupOffered() {
        return template.offersBackup() && refusal() == null && !severalKinds();
    }

    /** Whether {@code typed} (the project id the user typed, or null) lets it run; a refusal never does. */
    public boolean allows(String typed) {
        return refusal() == null && (!confirmsProject() || project.equals(typed));
    }

    /**
     * For a front end where the project id is given up front ({@code typed}, or null): throws a message the user can
     * act on unless the job may run; {@code howToConfirm} says how to confirm there ("add --confirm-project P").
     */
    public void require(String typed, String howToConfirm) {
        if (refusal() != null) {
            throw new KeyRangerException(refusal());
        }
        if (!allows(typed)) {
            throw WriteSafety.unconfirmed(template, project, howToConfirm);
        }
    }
}
