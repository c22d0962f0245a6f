package io.keyranger.beam;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.migrate.Migration;
import io.keyranger.migrate.MigrationFolder;
import io.keyranger.migrate.MigrationLock;
import io.keyranger.migrate.MigrationStep;
import io.keyranger.migrate.Migrations;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --migrations=DIR}: the pending migrations of a folder applied as {@code keyranger migrate up} applies them
 * ({@link Migrations}: the same ledger, lease, job ids and checks), each step's job run as a pipeline on the options'
 * runner. A step over several kinds runs with {@code keyranger migrate up} (a pipeline runs one kind); so does
 * {@code down}, whose reverts read undo records the local runner keeps.
 */
final class BeamMigrations {
    private BeamMigrations() {
    }

    static int run(KeyRangerOptions options, PrintStream out, PrintStream err) {
        if (options.getKind() != null || options.getMapper() != null || options.getMapperSpec() != null
                || options.getJobId() != null) {
            err.println("keyranger-beam: --migrations takes each step's kind, mapper and job id from its migration: "
                    + "leave --kind, --mapper, --mapperSpec and --jobId out.");
            return 2;
        }
        List<Migration> files;
        ConnectionSpec conn;
        try {
            files = MigrationFolder.read(Path.of(options.getMigrations()));
            conn = BeamRequest.connection(options);
            for (Migration m : files) { // nothing is read or written without consent, nor a step no pipeline runs
                for (MigrationStep step : m.steps()) {
                    if (step.group()) {
                        throw new KeyRangerException(m.name() + ": a step over several kinds (" + step.describe()
                                + ") runs with 'keyranger migrate up': a pipeline runs one kind.");
                    }
                    BeamRequest.checkMapper(step.mapper(), conn, options);
                }
            }
        } catch (IllegalArgumentException | KeyRangerException e) {
            err.println("keyranger-beam: " + e.getMessage());
            return 2;
        }
        if (!BeamMain.setUp(options, conn, err)) {
            return 2;
        }
        try {
            if (!conn.isLocal()) {
                BeamMain.checkCredentials();
            }
            Session session = Session.open(conn);
            MigrationStep.Sizes sizes = new MigrationStep.Sizes(Math.max(1, options.getShards()),
                    Math.max(1, Math.min(512, options.getShards())), options.getPageSize(), 0);
            return new Migrations(Jobs.on(session), sizes).up(files, options.getMigrateTo(), request -> {
                JobSpec spec = request instanceof JobRequest.NewJob job ? job.spec()
                        : new JobStore(session.datastore()).loadJob(((JobRequest.Resume) request).jobId()).spec();
                int code = BeamMain.runJob(options, BeamRequest.of(conn, spec), session, out, err);
                return new Migrations.Outcome(code == 1 ? Migrations.Outcome.FAILED : code, "the pipeline of job "
                        + spec.jobId() + " exited " + code);
            }, line -> {
                err.println(line);
                err.flush();
            });
        } catch (MigrationLock.Busy e) {
            err.println("keyranger-beam: " + e.getMessage());
            return 6;
        } catch (KeyRangerException e) {
            err.println("keyranger-beam: " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return BeamMain.CANCELLED;
        }
    }
}
