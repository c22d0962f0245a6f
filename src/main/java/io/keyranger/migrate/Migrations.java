package io.keyranger.migrate;

import com.google.cloud.datastore.Datastore;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.executor.store.JobStore;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobResult;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.migrate.MigrationLedger.Entry;
import io.keyranger.migrate.MigrationLedger.State;
import io.keyranger.summary.DryRunPrinter;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.Operations;
import io.keyranger.undo.JobUndo;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Applies a folder of migrations to a database ({@code up}) and takes them back ({@code down}), as the command line
 * and the app both do. Each step is a job with undo under an id its migration, the time it is applied and its place
 * give ({@link #jobId}), so an {@code up} run again after a kill or a failure resumes the same job where it stopped
 * (never applying a step twice), and {@code down} reverts each through its undo records, newest first. One runner at
 * a time holds the database's migrations ({@link MigrationLock}); the folder is checked against the ledger before
 * anything is written.
 */
public final class Migrations {
    /** A step's job run to its end, as the caller follows it (its progress, Ctrl-C, its summary). */
    public interface StepRunner {
        /** Runs {@code request} (a new job, a resume, a revert) and says how it ended. */
        Outcome run(JobRequest request) throws InterruptedException;
    }

    /**
     * How a job ended for a migration.
     *
     * @param exitCode 0 done; 7 done, but entities changed later were left alone (a revert's conflicts, a restore's
     *                 skipped ones); any other: it did not end done
     * @param message  why it did not end done, or what it left alone, or null
     */
    public record Outcome(int exitCode, String message) {
        /** Done, but entities changed later were left alone: {@code revert}'s and {@code restore}'s code. */
        public static final int LEFT_ALONE = 7;
        /** Done but for entities it could not write: {@code run}'s code. */
        public static final int NOT_ALL_WRITTEN = 8;
        /** Cancelled: {@code run}'s code. */
        public static final int CANCELLED = 4;
        /** Taken over by another runner: {@code run}'s code. */
        public static final int TAKEN_OVER = 5;
        /** Failed: {@code run}'s code. */
        public static final int FAILED = 3;

        /** How a job's {@code result} ends a step, with the codes every front end gives it ({@link JobOutcome}). */
        public static Outcome of(JobResult result) {
            String message = result.status().word() + (result.message() == null ? "" : ": " + result.message());
            int code = switch (result.status()) {
                case DONE -> JobOutcome.notWritten(result.totals()) > 0 ? NOT_ALL_WRITTEN
                        : JobOutcome.leftAlone(result.totals()) > 0 ? LEFT_ALONE : 0;
                case CANCELLED -> CANCELLED;
                case TAKEN_OVER -> TAKEN_OVER;
                default -> FAILED;
            };
            return new Outcome(code, message);
        }

        /**
         * Whether its job ended done: whole, or with entities left alone or not written (named in its report; the
         * migration is applied, and the code says so).
         */
        boolean done() {
            return exitCode == 0 || exitCode == LEFT_ALONE || exitCode == NOT_ALL_WRITTEN;
        }
    }

    private final Jobs jobs;
    private final Datastore datastore;
    private final MigrationStep.Sizes sizes;

    public Migrations(Jobs jobs, MigrationStep.Sizes sizes) {
        this.jobs = jobs;
        this.datastore = jobs.session().datastore();
        this.sizes = sizes;
    }

    /** The folder's migrations beside the database's ledger. */
    public List<MigrationStatus> status(List<Migration> files) {
        return MigrationStatus.of(files, jobs.retries().call(() -> MigrationLedger.read(datastore)));
    }

    /** The migrations {@code up --to to} applies (null: all), in order; checked against the ledger first. */
    public List<Migration> pending(List<MigrationStatus> all, Integer to) {
        MigrationStatus.requireConsistent(all);
        return all.stream().filter(s -> s.migration() != null && (to == null || s.number() <= to))
                .filter(s -> s.entry() == null || s.entry().state() != State.APPLIED).map(MigrationStatus::migration)
                .toList();
    }

    /**
     * Prints on {@code out} the dry run of every pending step of {@code files} up to {@code to} (null: all), each as
     * {@code run --dry-run} prints its job's ({@code sample} entities, priced at {@code prices}; its warnings to
     * {@code warnings}), then the price of all of them; checked against the ledger first. Returns how many
     * migrations are pending.
     */
    public int plan(List<Migration> files, Integer to, int sample, PriceTable prices, PrintWriter out,
                    Consumer<String> warnings) {
        List<Migration> pending = pending(status(files), to);
        if (pending.isEmpty()) {
            out.println("Nothing to apply: every migration" + (to == null ? "" : " up to " + to) + " is applied.");
            out.flush();
            return 0;
        }
        long reads = 0;
        long writes = 0;
        long deletes = 0;
        int steps = 0;
        for (Migration m : pending) {
            for (int i = 0; i < m.steps().size(); i++) {
                MigrationStep step = m.steps().get(i);
                for (String kind : step.gql() != null ? List.of(step.kind()) : step.kinds()) {
                    out.printf("== Migration %s, step %d/%d: %s%s%n", m.describe(), i + 1, m.steps().size(),
                            step.describe(), step.group() ? " (kind " + kind + ")" : "");
                    DryRunner.Result dry = jobs.retries().call(() -> new DryRunner(jobs.session()).run(
                            step.namespace(), kind, step.mapper(), Math.max(1, sample)));
                    dry.warnings().forEach(warnings);
                    DryRunPrinter.print(dry, out, prices);
                    Operations operations = Operations.of(dry);
                    reads += operations.reads();
                    writes += operations.writes();
                    deletes += operations.deletes();
                    steps++;
                }
            }
        }
        out.printf("Plan: %d migration%s pending, %d dry run%s; all of them: %s.%n", pending.size(),
                pending.size() == 1 ? "" : "s", steps, steps == 1 ? "" : "s", prices.describe(reads, writes, deletes));
        out.flush();
        return pending.size();
    }

    /** The id of step {@code step} (from 1) of migration {@code number} applied for the {@code attempt}th time. */
    public static String jobId(int number, int attempt, int step) {
        return String.format("migrate-%04d-%d-%d", number, attempt, step);
    }

    /**
     * Applies the pending migrations of {@code files} up to {@code to} (null: all) in order, each step a job run by
     * {@code runner}; {@code say} hears what starts. Returns 0 when all are applied, 7 when some step left later
     * changes alone, 8 when some step could not write some entities (both named in the job's report; the migration
     * is applied), else the failing step's code (its migration recorded as failed, to be resumed).
     */
    public int up(List<Migration> files, Integer to, StepRunner runner, Consumer<String> say)
            throws InterruptedException {
        pending(status(files), to); // refused before the lease is taken
        try (MigrationLock lock = MigrationLock.take(datastore)) {
            List<MigrationStatus> all = status(files); // as it is now that this runner holds the lease
            List<Migration> pending = pending(all, to);
            if (pending.isEmpty()) {
                say.accept("Nothing to apply: every migration" + (to == null ? "" : " up to " + to)
                        + " is applied.");
                return 0;
            }
            int worst = 0;
            for (Migration m : pending) {
                Entry before = all.stream().filter(s -> s.number() == m.number()).findFirst().orElseThrow().entry();
                int attempt = before == null ? 1 : before.state() == State.REVERTED ? before.attempt() + 1
                        : before.attempt();
                List<String> ids = new ArrayList<>();
                for (int i = 1; i <= m.steps().size(); i++) {
                    ids.add(jobId(m.number(), attempt, i));
                }
                Entry entry = new Entry(m.number(), m.name(), m.checksum(), attempt, ids,
                        before != null && before.attempt() == attempt ? before.started() : Instant.now(), null,
                        State.RUNNING, null);
                MigrationLedger.write(datastore, lock, entry);
                say.accept("Migration " + m.describe() + ": " + (before != null && before.attempt() == attempt
                        ? "resuming" : "applying") + " " + m.steps().size() + " step" + (m.steps().size() == 1 ? ""
                        : "s"));
                List<String> notes = new ArrayList<>();
                for (int i = 0; i < m.steps().size(); i++) {
                    MigrationStep step = m.steps().get(i);
                    String id = ids.get(i);
                    say.accept("Step " + (i + 1) + "/" + m.steps().size() + ": " + step.describe() + " (job " + id
                            + ")");
                    // started before (the runner stopped, or it failed): resumed where it stopped, done or not
                    JobRequest request = exists(id) ? JobRequest.resume(id) : step.request(id, sizes);
                    lock.requireHeld(); // a runner that lost the lease starts no job
                    Outcome outcome = run(runner, request, lock, entry, "step " + (i + 1) + " (job " + id + ")");
                    if (!outcome.done()) {
                        MigrationLedger.write(datastore, lock, entry.with(State.FAILED, Instant.now(),
                                "step " + (i + 1) + " (job " + id + "): " + outcome.message()));
                        return outcome.exitCode();
                    }
                    worst = Math.max(worst, outcome.exitCode());
                    if (outcome.exitCode() != 0) {
                        notes.add("step " + (i + 1) + " (job " + id + ") " + (outcome.exitCode()
                                == Outcome.LEFT_ALONE ? "left later changes alone" : "could not write some "
                                + "entities") + ": its report names them");
                    }
                }
                MigrationLedger.write(datastore, lock, entry.with(State.APPLIED, Instant.now(), notes.isEmpty()
                        ? null : String.join("; ", notes)));
                say.accept("Migration " + m.describe() + ": applied.");
            }
            return worst;
        }
    }

    /**
     * Takes back the migrations in effect numbered above {@code to}, newest first, each step's job reverted (newest
     * step first) through its undo records by {@code runner}; with {@code force}, over later changes too. Every
     * revert is checked before anything is written (a migration whose undo records were pruned is refused, with
     * why). It needs only the ledger: a file changed or removed since is no obstacle. Returns 0, 7 when later
     * changes were left alone (named by each revert), or the failing revert's code.
     */
    public int down(List<Migration> files, int to, boolean force, StepRunner runner, Consumer<String> say)
            throws InterruptedException {
        try (MigrationLock lock = MigrationLock.take(datastore)) {
            List<Entry> undone = status(files).stream().filter(MigrationStatus::inEffect)
                    .filter(s -> s.number() > to).map(MigrationStatus::entry)
                    .sorted(Comparator.comparingInt(Entry::number).reversed()).toList();
            if (undone.isEmpty()) {
                say.accept("Nothing to roll back: no migration above " + to + " is applied.");
                return 0;
            }
            for (Entry entry : undone) { // every revert checked before the first is started
                for (String id : started(entry)) {
                    if (!reverted(id)) {
                        try {
                            jobs.prepare(JobRequest.revert(id, settings(id, force)), -1, null);
                        } catch (KeyRangerException e) {
                            throw new KeyRangerException(String.format("Migration %04d (%s) cannot be rolled back: "
                                    + "%s Nothing was written.", entry.number(), entry.name(), e.getMessage()));
                        }
                    }
                }
            }
            int worst = 0;
            for (Entry entry : undone) {
                MigrationLedger.write(datastore, lock, entry.with(State.REVERTING, null, null));
                say.accept(String.format("Migration %04d (%s): rolling back", entry.number(), entry.name()));
                List<String> started = new ArrayList<>(started(entry));
                Collections.reverse(started);
                List<String> leftAlone = new ArrayList<>();
                for (String id : started) {
                    String revertId = revertId(id);
                    say.accept("Reverting job " + id + " (job " + revertId + ")");
                    JobRequest request = exists(revertId) ? JobRequest.resume(revertId)
                            : JobRequest.revert(id, settings(id, force));
                    lock.requireHeld();
                    Outcome outcome = run(runner, request, lock, entry.with(State.REVERTING, null, null),
                            "revert of job " + id);
                    if (!outcome.done()) {
                        MigrationLedger.write(datastore, lock, entry.with(State.REVERTING, Instant.now(),
                                "revert of job " + id + ": " + outcome.message()));
                        return outcome.exitCode();
                    }
                    if (outcome.exitCode() != 0) {
                        leftAlone.add(id);
                        worst = Math.max(worst, outcome.exitCode());
                    }
                }
                MigrationLedger.write(datastore, lock, entry.with(State.REVERTED, Instant.now(), leftAlone.isEmpty()
                        ? null : "entities left as they are by the reverts of " + String.join(", ", leftAlone)
                        + " (changed later, or not written: each revert's report names them)"));
                say.accept(String.format("Migration %04d (%s): rolled back%s.", entry.number(), entry.name(),
                        leftAlone.isEmpty() ? "" : ", but for later changes (left alone, named above)"));
            }
            return worst;
        }
    }

    /**
     * Runs {@code request}; a job that could not be run at all (refused as it was prepared, the connection lost) leaves
     * {@code entry} recorded with why ({@code what}: "step 2 (job ...)"), as failed for an {@code up}.
     */
    private Outcome run(StepRunner runner, JobRequest request, MigrationLock lock, Entry entry, String what)
            throws InterruptedException {
        try {
            return runner.run(request);
        } catch (RuntimeException e) {
            try {
                MigrationLedger.write(datastore, lock, entry.with(entry.state() == State.RUNNING ? State.FAILED
                        : entry.state(), Instant.now(), what + ": " + e.getMessage()));
            } catch (RuntimeException notRecorded) {
                e.addSuppressed(notRecorded);
            }
            throw e;
        }
    }

    /** The jobs of {@code entry}'s steps that were started, in order. */
    private List<String> started(Entry entry) {
        return entry.jobs().stream().filter(this::exists).toList();
    }

    private boolean exists(String jobId) {
        return jobs.retries().call(() -> new JobStore(datastore).findJob(jobId) != null
                || KindGroup.load(datastore, jobId) != null);
    }

    /** Whether {@code jobId}'s revert (the one {@code down} starts) exists already: it is resumed, not prepared. */
    private boolean reverted(String jobId) {
        return exists(revertId(jobId));
    }

    /** The id of the revert {@code down} starts for {@code jobId}: the same every time, so a stopped one resumes. */
    public static String revertId(String jobId) {
        return "undo-" + jobId;
    }

    private JobUndo.RevertSettings settings(String jobId, boolean force) {
        return new JobUndo.RevertSettings(revertId(jobId), force, sizes.shards(), sizes.workers(), sizes.pageSize(),
                sizes.qps());
    }
}
