package io.keyranger.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.launch.Consent;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.launch.Preparation;
import io.keyranger.migrate.Migration;
import io.keyranger.migrate.MigrationFolder;
import io.keyranger.migrate.MigrationLedger;
import io.keyranger.migrate.MigrationLock;
import io.keyranger.migrate.MigrationStatus;
import io.keyranger.migrate.MigrationStep;
import io.keyranger.migrate.Migrations;
import io.keyranger.undo.JobUndo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code keyranger migrate status|plan|up|down --dir DIR}: a folder of numbered migrations, each a list of jobs,
 * applied once per database and each revertible ({@link Migrations}).
 */
@Command(name = "migrate", mixinStandardHelpOptions = true, description = "Apply a folder of numbered data "
        + "migrations (NNNN_description.json, each {\"steps\": [JOB, ...]}) once per database, or roll them back.",
        subcommands = {MigrateCommand.Status.class, MigrateCommand.Plan.class, MigrateCommand.Up.class,
            MigrateCommand.Down.class})
public final class MigrateCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What every migrate command takes: the connection and the folder. */
    abstract static class Folder {
        final KeyRangerCli.Context context;

        @Spec
        CommandSpec spec;

        @Mixin
        ConnectionOptions connection = new ConnectionOptions();

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The migrations folder.")
        Path dir;

        Folder(KeyRangerCli.Context context) {
            this.context = context;
        }

        ConnectionSpec conn() {
            return connection.resolve(context.profiles(), context.env());
        }

        PriceTable prices() {
            return context.settings().load().priceTable();
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }
    }

    /** The options of the commands that run jobs. */
    abstract static class Running extends Folder {
        @Mixin
        JobSize size = new JobSize();

        @Mixin
        ConfirmProject confirm = new ConfirmProject();

        @Mixin
        TestHooks hooks = new TestHooks();

        Running(KeyRangerCli.Context context) {
            super(context);
        }

        MigrationStep.Sizes sizes() {
            return new MigrationStep.Sizes(size.shards, size.workers, size.pageSize, size.qps);
        }

        /** What an {@code up} or {@code down} does, saying each thing it starts to {@code say}. */
        interface Applying {
            int apply(Consumer<String> say) throws InterruptedException;
        }

        /** Runs {@code applying}, its lines on stderr; another runner's live lease is exit 6, as a busy job's. */
        int guarded(Applying applying) throws InterruptedException {
            PrintWriter err = err();
            try {
                return applying.apply(line -> {
                    err.println(line);
                    err.flush();
                });
            } catch (MigrationLock.Busy e) {
                err.println("keyranger: " + e.getMessage());
                return RunCommand.EXIT_JOB_BUSY;
            }
        }

        /**
         * Runs each job as 'run' and 'revert' do: progress, Ctrl-C, its summary; its code as they give it. A test's
         * hold ({@link TestHooks}) applies to the {@code holdStep}th job run (null: to each).
         */
        Migrations.StepRunner runner(Session session, PriceTable prices, Integer holdStep) {
            int[] run = {0};
            return request -> {
                PrintWriter err = err();
                run[0]++;
                Jobs jobs = holdStep == null || holdStep == run[0] ? hooks.jobs(session, err)
                        : Jobs.on(session);
                Preparation prepared = jobs.prepare(request, -1, prices);
                prepared.notices().forEach(w -> err.println("keyranger: warning: " + w));
                JobProgressPrinter progress = new JobProgressPrinter(err);
                JobHandle handle = jobs.launch(prepared, progress, err::println);
                JobResult result = JobFollow.follow(handle, progress, spec.commandLine(), prices, null,
                        "Run the same 'keyranger migrate " + spec.name() + "' again to resume it.");
                RestoreCommand.exitCode(result, err, null); // what it left alone, said as 'restore' says it
                return Migrations.Outcome.of(result);
            };
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Each migration of the folder with its "
            + "state in this database: applied (when, by which jobs), pending, changed since applied, failed, "
            + "stopped part-way, file missing.")
    static final class Status extends Folder implements Callable<Integer> {
        @Option(names = "--json", description = "Print the states as JSON (see the README).")
        boolean json;

        Status(KeyRangerCli.Context context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            List<Migration> files = MigrationFolder.read(dir);
            Jobs jobs = Jobs.on(Session.open(conn()));
            List<MigrationStatus> all = new Migrations(jobs, MigrationStep.Sizes.DEFAULT).status(files);
            int highest = MigrationStatus.highestInEffect(all);
            if (json) {
                out().println(toJson(all, highest));
            } else if (all.isEmpty()) {
                out().println("No migrations in " + dir + ".");
            } else {
                for (MigrationStatus s : all) {
                    MigrationLedger.Entry e = s.entry();
                    out().printf("%04d  %-40s %s%s%n", s.number(), s.migration() != null ? s.migration().name()
                            : e.name(), s.word(highest).text(), e == null || e.state() == MigrationLedger.State.REVERTED
                            ? "" : "  (" + (e.ended() != null ? "ended " + e.ended() : "started " + e.started())
                            + ", jobs " + String.join(", ", e.jobs()) + (e.message() == null ? "" : "; "
                            + e.message()) + ")");
                }
            }
            out().flush();
            return 0;
        }

        static String toJson(List<MigrationStatus> all, int highest) throws Exception {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ArrayNode array = mapper.createArrayNode();
            for (MigrationStatus s : all) {
                ObjectNode o = array.addObject();
                MigrationLedger.Entry e = s.entry();
                o.put("number", s.number());
                o.put("file", s.migration() != null ? s.migration().name() : e.name());
                o.put("state", s.word(highest).name().toLowerCase(Locale.ROOT));
                o.put("checksum", s.migration() != null ? s.migration().checksum() : null);
                o.put("appliedChecksum", e == null ? null : e.checksum());
                ArrayNode jobIds = o.putArray("jobs");
                if (e != null && e.state() != MigrationLedger.State.REVERTED) {
                    e.jobs().forEach(jobIds::add);
                }
                o.put("started", e == null ? null : e.started().toString());
                o.put("ended", e == null || e.ended() == null ? null : e.ended().toString());
                o.put("message", e == null ? null : e.message());
            }
            return mapper.writeValueAsString(array);
        }
    }

    @Command(name = "plan", mixinStandardHelpOptions = true, description = "The dry run of every pending step, with "
            + "its counts and price, and the total; writes nothing.")
    static final class Plan extends Folder implements Callable<Integer> {
        @Option(names = "--to", paramLabel = "N", description = "Only the migrations up to number N.")
        Integer to;

        @Option(names = "--sample", defaultValue = "20", paramLabel = "N",
                description = "Entities in each dry run (default: ${DEFAULT-VALUE}).")
        int sample;

        Plan(KeyRangerCli.Context context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            List<Migration> files = MigrationFolder.read(dir);
            Migrations migrations = new Migrations(Jobs.on(Session.open(conn())), MigrationStep.Sizes.DEFAULT);
            migrations.plan(files, to, sample, prices(), out(), w -> err().println("keyranger: warning: " + w));
            return 0;
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Apply the pending migrations in order, each "
            + "step a job with undo. Stopped part-way, run it again: it resumes where it stopped and applies no step "
            + "twice.")
    static final class Up extends Running implements Callable<Integer> {
        @Option(names = "--to", paramLabel = "N", description = "Apply the migrations up to number N only.")
        Integer to;

        @Option(names = "--hold-in-step", hidden = true, paramLabel = "N", description = "Tests: the hold of "
                + "--hold-after-chunks or --hold-between-chunks applies to the Nth job this run starts.")
        Integer holdStep;

        Up(KeyRangerCli.Context context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            List<Migration> files = MigrationFolder.read(dir);
            ConnectionSpec conn = conn();
            PriceTable prices = prices();
            for (Migration m : files) { // nothing is read or written without consent
                for (int i = 0; i < m.steps().size(); i++) {
                    confirm.require(Consent.of(conn, m.steps().get(i).request(Migrations.jobId(m.number(), 1, i + 1),
                            sizes()), -1, prices));
                }
            }
            Session session = Session.open(conn);
            return guarded(say -> new Migrations(Jobs.on(session), sizes()).up(files, to, runner(session, prices,
                    holdStep), say));
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Roll back the applied migrations above "
            + "--to, newest first, through their undo records; entities changed since are left alone and named "
            + "(exit 7) unless --force.")
    static final class Down extends Running implements Callable<Integer> {
        @Option(names = "--to", required = true, paramLabel = "N", description = "Roll back every migration numbered "
                + "above N (0: all).")
        int to;

        @Option(names = "--force", description = "Restore entities changed since the migrations too, over those "
                + "changes.")
        boolean force;

        Down(KeyRangerCli.Context context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            List<Migration> files = MigrationFolder.read(dir);
            ConnectionSpec conn = conn();
            confirm.require(Consent.of(conn, JobRequest.revert("migrations", new JobUndo.RevertSettings(null, force, 16,
                    8, 200, 0))));
            Session session = Session.open(conn);
            int code = guarded(say -> new Migrations(Jobs.on(session), sizes()).down(files, to, force,
                    runner(session, prices(), null), say));
            if (code == Migrations.Outcome.LEFT_ALONE) {
                err().println("keyranger: entities changed after the migrations kept their values (named above); "
                        + "migrate down --force restores them too.");
            }
            return code;
        }
    }
}
