package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.files.FileStore;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import java.util.function.Consumer;

/**
 * A job's input ({@link JobInput}) as every runner, local or Beam, runs it: the check that stamps a job with what its
 * input was, how its ranges are planned, and where its pages come from with the mapper that maps them. {@link #of} is
 * the one place an input becomes its engine's parts.
 */
public interface InputRun {
    /** The input of job {@code spec} as the engine runs it. */
    static InputRun of(JobSpec spec) {
        return JobInput.of(spec).match(new JobInput.Cases<InputRun>() {
            @Override
            public InputRun kindKeys(JobInput.KindKeys input) {
                return new KeyRangeRun(input);
            }

            @Override
            public InputRun jsonLines(JobInput.JsonLines input) {
                return new FileRun(input, input.file(), null, null, input.skipBadLines());
            }

            @Override
            public InputRun managedExport(JobInput.ManagedExport input) {
                return new FileRun(input, input.file(), input.select(), input.keys(), input.skipBadLines());
            }

            @Override
            public InputRun past(JobInput.Past input) {
                return new PastRun(input);
            }

            @Override
            public InputRun database(JobInput.Database input) {
                return new DatabaseRun(input);
            }
        });
    }

    /** What this runs. */
    JobInput input();

    /**
     * The key order the job's ranges are cut and compared in, on a server ordered {@code server}: the server's, but
     * for a copy from another database, whose ranges are its source's (the legacy emulator's UTF-16 order, or UTF-8).
     */
    default KeyOrder order(KeyOrder server) {
        return server;
    }

    /**
     * {@code spec} (this input's job) as a run of it starts: its spec checked (a file read whole: a bad entry refused
     * before anything is written; {@code warnings} hears what the user should know) and stamped with what its input
     * is, so that every later run under its id, on any runner, reads the same. {@code earlier} is the stored job of
     * its id (or null: a new one); a run on other input or with other options is refused here, nothing written.
     */
    JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, Earlier earlier,
                    Consumer<String> warnings);

    /**
     * Refuses, before anything is read, a run of {@code spec} under the id of stored job {@code was} that asks for
     * other options, where that needs no read of the input (a restore from the past); any other input passes here, and
     * is compared with its job's as it is checked ({@link #checked}).
     */
    default void requireSameOptions(Datastore datastore, KeyOrder order, JobSpec spec, JobSpec was) {
    }

    /** The stored job of a run's id: its spec, and whether it is done already (then its input is not read again). */
    record Earlier(JobSpec spec, boolean done) {
    }

    /** How a new job of {@code spec} (bound, checked) starts: its ranges and its cells, planned as {@code request} asks. */
    InputPlan plan(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, PlanRequest request,
                   Cancellation cancellation);

    /** Where the pages of job {@code spec} (bound, checked) come from and the mapper that maps them. */
    Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec);

    /** What a runner reads a job's pages from and maps them with. */
    record Pages(PageSource source, PageMapper mapper) {
    }
}
