package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.ReadTimeMapper;
import io.keyranger.files.FileStore;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import java.util.List;
import java.util.function.Consumer;

/**
 * A job over the entries of a file: an import of JSON lines an export wrote, or a restore from a managed export of
 * its kind and namespace, narrowed by a query ({@code select}) and a file of keys ({@code keys}). Its pages are the
 * positions of its input's entries ({@link FileSource}), its cells cut along the input's bytes, and its mapper writes
 * each entry as its mode says ({@link ImportMapper}). Its whole input is checked before a job of it is created.
 *
 * Its fields: the file (or a managed export's folder or metadata file), a managed export's query and file of keys
 * (or null), and whether lines that are not exported entities are counted and skipped rather than refused. An
 * instance serves one run of one job (its plan and its pages read one opening of the input).
 */
final class FileRun implements InputRun {
    /** The counter of an export's entities a restore passed over: of other kinds or namespaces, or not selected. */
    static final String NOT_SELECTED = "in the export, not selected";

    private final JobInput input;
    private final String file;
    private final String select;
    private final String keys;
    private final boolean skipBadLines;
    /** The input as its job's run opened it (its plan and its pages read one opening), or null before. */
    private FileSource opened;

    FileRun(JobInput input, String file, String select, String keys, boolean skipBadLines) {
        this.input = input;
        this.file = file;
        this.select = select;
        this.keys = keys;
        this.skipBadLines = skipBadLines;
    }

    @Override
    public JobInput input() {
        return input;
    }

    private boolean managed() {
        return input instanceof JobInput.ManagedExport;
    }

    private RestoreMode mode() {
        return input instanceof JobInput.ManagedExport m ? m.mode() : RestoreMode.OVERWRITE;
    }

    /**
     * The input: the file as JSON lines, or a managed export's entities of {@code spec}'s namespace and kind, all read
     * through {@code files} (the local disk, or Beam's file systems on a pipeline). Bad parameters are refused here,
     * before anything is read.
     */
    private ImportInput open(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        String database = datastore.getOptions().getDatabaseId() == null ? "" : datastore.getOptions().getDatabaseId();
        if (!managed()) {
            return new ImportFile(files, file, datastore.getOptions().getProjectId(), database);
        }
        return ManagedImport.of(datastore, order, ManagedExport.open(files, file), spec.namespace(), spec.kind(),
                select, keys);
    }

    /**
     * Reads the whole input and checks it: a job of its id started on other input or with other options is refused;
     * one started on this input keeps the identity it was stamped with (where and when the input was found only
     * describe it).
     */
    @Override
    public JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, Earlier earlier,
                           Consumer<String> warnings) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        ImportInput read = open(datastore, files, order, spec);
        ImportFile.Check check = read.check(skipBadLines, () -> false);
        check.warnings().forEach(warnings);
        ImportIdentity identity = read.identity(check).selecting("kind " + spec.kind() + ", mode " + mode().id());
        if (earlier == null) {
            return InputStamps.stamped(spec, identity, check);
        }
        JobSpec was = earlier.spec();
        if (!JobInput.of(was).bringsEntitiesIn()) {
            throw new KeyRangerException("Job " + spec.jobId() + " is a '" + was.mapper().template() + "' job over "
                    + was.kind() + ", not an import or a restore. Nothing was written. Give this one another "
                    + "--job-id.");
        }
        identity.requireSameAs(was.mapper(), "Job " + spec.jobId());
        JobSpec again = InputStamps.stampedAs(spec, was, identity, check);
        InputStamps.requireSameOptions(again, was, "Run it with the options it was started with to resume it (its "
                + "file at the same path), or give this run another --job-id.");
        return again;
    }

    /** Cells cut along the input's bytes, starting ranges of whole cells, and the entries its check counted. */
    @Override
    public InputPlan plan(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, PlanRequest request,
                          Cancellation cancellation) {
        FileSource source = source(datastore, files, order, spec);
        CellPlan cells = source.cells(order, CellPlan.MAX_CELLS);
        return new InputPlan(cells.startingRanges(spec.shards()), List.of(), cells,
                Math.max(0, InputStamps.entries(spec.mapper())));
    }

    /** The positions of the input's entries, and an {@link ImportMapper} (a file's job writes: no read time). */
    @Override
    public Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        FileSource source = source(datastore, files, order, spec);
        PageMapper mapper = Mappers.screened(new ImportMapper(spec.kind(), mode(), source.input()::placed, managed(),
                input.writesEachKeyOnce(spec.mapper())),
                spec.mapper().undo());
        return new Pages(source, ReadTimeMapper.of(datastore, spec, mapper)); // refused with a read time: it writes
    }

    /** The positions of the input's entries, for the job {@code spec} (checked): opened once a run. */
    private synchronized FileSource source(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        if (opened == null) {
            opened = new FileSource(open(datastore, files, order, spec), datastore.getOptions().getProjectId(),
                    skipBadLines, InputStamps.superseded(spec.mapper()), InputStamps.badLines(spec.mapper()));
        }
        return opened;
    }
}
