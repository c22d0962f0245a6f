package io.keyranger.executor.source;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Iterator;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.files.FileStore;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.PastRestore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.cel.MaskFunctions;
import io.keyranger.query.ClientQuery;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.time.Instant;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A copy or restore from another database as every runner runs it ({@link JobInput.Database}): the source and the
 * moment its spec keeps (so every runner, a resume and Beam's workers read the same entities), its ranges planned over
 * the source's kind at that moment and placed in the job's partition, its pages ({@link DatabaseSource}) and its
 * mapper ({@link PastMapper}, deciding as a restore from an export does).
 */
public record DatabaseRun(JobInput.Database input) implements InputRun {
    /**
     * {@code spec} with its keys file kept by the digest of its keys, as a restore from the past keeps it; refused
     * before anything is read when the source's moment has left its server's window, the source orders keys apart
     * from this server, or a stored job of its id was started with other options.
     */
    @Override
    public JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, Earlier earlier,
                           Consumer<String> warnings) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        requireOneOrderToRemove(order, spec);
        requireMaskKey(spec);
        if (earlier != null) {
            requireSameOptions(datastore, order, spec, earlier.spec());
            if (earlier.done()) {
                return earlier.spec();
            }
        }
        requireKept(spec);
        return InputStamps.stampedSelection(spec, earlier, input.keys() == null ? null
                : () -> identity(files, spec, keys(files, datastore.getOptions().getProjectId(), order(order), spec)));
    }

    @Override
    public void requireSameOptions(Datastore datastore, KeyOrder order, JobSpec spec, JobSpec was) {
        InputStamps.requireSameOptions(spec.bind(datastore.getOptions().getProjectId(), order), was, "Resume it by "
                + "its id alone with 'keyranger run --resume " + spec.jobId() + "' (it keeps its source and the "
                + "moment it reads), or run it with the options it was started with (the same source and --as-of, "
                + "as an absolute time), or give this run another --job-id.");
    }

    /**
     * Planned over the source's kind at the job's moment, which is what it brings in (the connected kind may be
     * empty); one range over the whole key space when the source holds none. The ranges cover the whole key space
     * either way, so the connected kind's keys merged in fall in them.
     */
    @Override
    public InputPlan plan(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, PlanRequest request,
                          Cancellation cancellation) {
        DatabasePlacement paths = placement(datastore, spec).keepingKinds();
        PlanRequest there = new PlanRequest(input.source().namespace(), sourceKind(spec), request.filters(),
                request.shards(), request.oversample());
        ShardPlanner.RangePlan plan = new ShardPlanner(sourceAt(), order).planRangesOrWhole(there, cancellation);
        return InputPlan.ranges(new ShardPlanner.RangePlan(plan.ranges().stream()
                .map(r -> r.placed(paths::target)).toList(),
                plan.samples().stream().map(paths::target).toList(), plan.entities()));
    }

    @Override
    public Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        PastRestore restore = input.restore();
        Datastore live = PastReads.live(datastore);
        String project = live.getOptions().getProjectId();
        // the query names the kind as the source does; it reads the entities as placed (their other values the same)
        ClientQuery select = ClientQuery.selecting(input.select(), project, spec.namespace(), sourceKind(spec), order);
        NavigableSet<Key> keys = keys(files, project, order, spec);
        if (keys != null) {
            identity(files, spec, keys).requireSameAs(spec.mapper(), "Job " + spec.jobId());
        }
        DatabasePlacement placement = placement(live, spec);
        if (select != null && input.fromKind() != null) { // decided on the entities as written, under the new name
            DatabasePlacement paths = placement.keepingKinds();
            select = select.renamed(spec.kind(), k -> placement.target(paths.source(k)));
        }
        PastMapper mapper = new PastMapper(restore, select, keys == null, JobResult.SOURCE_READS,
                CopyShaping.of(spec.mapper()), keys != null, input.withAncestors());
        DatabaseSource source = new DatabaseSource(sourceAt(), restore.removeAdded() ? live : null, placement,
                sourceKind(spec), order, positions(placement, keys, order),
                input.withAncestors() ? e -> mapper.takes(e.getKey(), e) : null);
        return new Pages(source, Mappers.screened(input.fromKind() == null ? mapper : new RenamedKind(mapper,
                placement), spec.mapper().undo()));
    }

    /** The source's client, reading at the job's moment (live where its server keeps no past). */
    private Datastore sourceAt() {
        Session source = Session.shared(input.source());
        return input.asOf() == null ? source.datastore() : PastReads.at(source.datastore(),
                input.asOf().timestamp());
    }

    /** Where the source's entities go: the job's partition, and its kind when the source names it otherwise. */
    private DatabasePlacement placement(Datastore target, JobSpec spec) {
        ConnectionSpec source = input.source();
        return new DatabasePlacement(Partition.of(source), new Partition(target.getOptions().getProjectId(),
                target.getOptions().getDatabaseId(), spec.namespace())).renaming(sourceKind(spec), spec.kind());
    }

    /** The kind read in the source: the job's, unless it renames one ({@code --to-kind}). */
    private String sourceKind(JobSpec spec) {
        return input.fromKind() != null ? input.fromKind() : spec.kind();
    }

    /**
     * A keys file's keys (the job's kind's) as the pages name them: the source's paths, placed here, in key order
     * (themselves, unless the kind is renamed); null for none.
     */
    private static NavigableSet<Key> positions(DatabasePlacement placement, NavigableSet<Key> keys, KeyOrder order) {
        if (keys == null || placement.toKind() == null) {
            return keys;
        }
        NavigableSet<Key> paths = new TreeSet<>(order);
        keys.forEach(k -> paths.add(placement.keepingKinds().target(placement.source(k))));
        return paths;
    }

    /**
     * The source's key order: the job's ranges are the source's, cut where its keys are and compared as its server
     * orders them (the legacy emulator's UTF-16 or UTF-8), so that a copy between servers that order names apart
     * reads every source key once; the connected database only looks up and writes the keys it is given.
     */
    @Override
    public KeyOrder order(KeyOrder server) {
        return input.source().server().keyOrder();
    }

    /**
     * Refuses {@code --remove-added} from a source whose server orders keys apart from this one ({@code server}): what
     * to remove is found by querying this database's kind over the source's ranges, which this server would answer
     * in its own order.
     */
    private void requireOneOrderToRemove(KeyOrder server, JobSpec spec) {
        if (input.removeAdded() && order(server) != server) {
            throw new KeyRangerException("Job " + spec.jobId() + " copies from " + describe() + ", whose server "
                    + "orders key names apart from this one (the legacy Datastore emulator in UTF-16, the others in "
                    + "UTF-8): --remove-added cannot find what the source lacks across the two orders yet. Copy "
                    + "without it; nothing was written.");
        }
    }

    /** Refuses a moment the source's server no longer keeps (or never kept), before anything is read. */
    private void requireKept(JobSpec spec) {
        PointInTime moment = input.asOf();
        if (moment == null) {
            return;
        }
        Session source = Session.shared(input.source());
        Instant now = Instant.now();
        String no = "Job " + spec.jobId() + " reads " + describe() + ", ";
        if (!source.spec().server().readsPast()) {
            throw new KeyRangerException(no + "and its server keeps no past versions.");
        }
        try {
            ReadWindow.of(source, now).check(moment, now, note -> { });
        } catch (KeyRangerException e) {
            throw new KeyRangerException(no + "a moment its server no longer keeps: " + e.getMessage() + " Nothing "
                    + "more was written; what the job wrote so far can be reverted with 'keyranger revert "
                    + spec.jobId() + "'.");
        }
    }

    /** Refuses a transform that calls a masking function when no masking key is set, before anything is read. */
    private static void requireMaskKey(JobSpec spec) {
        if (MaskFunctions.key().isPresent()) {
            return;
        }
        String calls = masking(spec);
        if (calls != null) {
            throw new KeyRangerException(calls + ", which needs a masking key: set the environment variable "
                    + MaskFunctions.KEY_VARIABLE + " (it is never stored; use the same one to resume). Nothing was "
                    + "written.");
        }
    }

    /**
     * Where a copy's transform calls a masking function ("set.email calls fake_email"), which needs the masking key of
     * the machine that runs it; null when it calls none.
     */
    public static String masking(JobSpec spec) {
        MapperSpec transform = Mappers.copyTransform(spec.mapper());
        if (transform == null) {
            return null;
        }
        Iterator<Map.Entry<String, JsonNode>> set = transform.json().path("set").fields();
        while (set.hasNext()) {
            Map.Entry<String, JsonNode> e = set.next();
            String function = MaskFunctions.calls(e.getValue().asText());
            if (function != null) {
                return "set." + e.getKey() + " calls " + function;
            }
        }
        return null;
    }

    private String describe() {
        return input.backup();
    }

    private NavigableSet<Key> keys(FileStore files, String project, KeyOrder order, JobSpec spec) {
        if (input.keys() == null) {
            return null;
        }
        return KeysFile.selecting(KeysFile.read(files, input.keys(), project, spec.namespace()), spec.namespace(),
                spec.kind(), order);
    }

    /** What it reads: its source and moment as its spec gives them, and its selection with a keys file's digest. */
    private ImportIdentity identity(FileStore files, JobSpec spec, NavigableSet<Key> keys) {
        return new ImportIdentity(describe(),
                ManagedImport.selection(spec.namespace(), input.select(), keys) + ", kind " + spec.kind(),
                input.keys() == null ? "" : "the keys file " + ImportIdentity.describe(files, input.keys()));
    }
}
