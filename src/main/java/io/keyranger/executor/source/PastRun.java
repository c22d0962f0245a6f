package io.keyranger.executor.source;

import io.keyranger.mapper.SourceRecord;
import java.util.function.Predicate;
import java.util.Map;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.PointInTime;
import io.keyranger.files.FileStore;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.job.PastRestore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.query.ClientQuery;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.util.NavigableSet;
import java.util.function.Consumer;

/**
 * A restore from the database's past as every runner runs it ({@link JobInput.Past}): the moments its spec keeps (so
 * every runner, a resume and Beam's workers read the same past), its ranges planned over the kind as it was then, its
 * pages ({@link PastSource}) and its mapper ({@link PastMapper}).
 */
public record PastRun(JobInput.Past input) implements InputRun {
    /**
     * {@code spec} with what it selects kept in it ({@link ImportIdentity}: its keys file by the digest of the keys it
     * holds), so that every later run under its id, on any runner, refuses a keys file that changed since
     * ({@link #pages}). A run under the id of a stored job started with other options is refused, and unless that
     * job is done, so is one whose keys file changed since.
     */
    @Override
    public JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, Earlier earlier,
                           Consumer<String> warnings) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        String project = datastore.getOptions().getProjectId();
        if (earlier != null) {
            requireSameOptions(datastore, order, spec, earlier.spec());
            if (earlier.done()) {
                return earlier.spec();
            }
        }
        return InputStamps.stampedSelection(spec, earlier, input.keys() == null ? null
                : () -> identity(files, spec, keys(files, project, order, spec)));
    }

    @Override
    public void requireSameOptions(Datastore datastore, KeyOrder order, JobSpec spec, JobSpec was) {
        InputStamps.requireSameOptions(spec.bind(datastore.getOptions().getProjectId(), order), was, "Resume it by "
                + "its id alone with 'keyranger run --resume " + spec.jobId() + "' (it keeps its moments), or run it "
                + "with the options it was started with (the same --as-of and --until, as absolute times), or give "
                + "this run another --job-id.");
    }

    /**
     * Planned over the kind as it was at its moment, which is what it brings back (the live kind may be empty: a
     * script deleted it); one range over the whole key space when the kind was empty then too (all it does is delete
     * what was added since). The ranges cover the whole key space either way, so the keys merged in from a later
     * moment or the live kind fall in them.
     */
    @Override
    public InputPlan plan(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, PlanRequest request,
                          Cancellation cancellation) {
        return InputPlan.ranges(new ShardPlanner(PastReads.at(datastore, input.asOf().timestamp()), order)
                .planRangesOrWhole(request, cancellation));
    }

    /** The keys of the restore's keys file of its kind and namespace, in key order, or null when it has none. */
    private NavigableSet<Key> keys(FileStore files, String project, KeyOrder order, JobSpec spec) {
        if (input.keys() == null) {
            return null;
        }
        return KeysFile.selecting(KeysFile.read(files, input.keys(), project, spec.namespace()), spec.namespace(),
                spec.kind(), order);
    }

    /**
     * What a restore from the past reads: its moments as its spec gives them, and its selection with a keys file's
     * keys by their digest.
     */
    private ImportIdentity identity(FileStore files, JobSpec spec, NavigableSet<Key> keys) {
        JsonNode json = spec.mapper().json();
        return new ImportIdentity("the database as of " + json.path(JobInput.AS_OF).asText()
                + (json.hasNonNull(JobInput.UNTIL) ? " until " + json.get(JobInput.UNTIL).asText() : ""),
                ManagedImport.selection(spec.namespace(), input.select(), keys) + ", kind " + spec.kind(),
                input.keys() == null ? "" : "the keys file " + ImportIdentity.describe(files, input.keys()));
    }

    @Override
    public Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        PastRestore restore = input.restore();
        PointInTime until = input.until();
        Datastore live = PastReads.live(datastore);
        String project = live.getOptions().getProjectId();
        ClientQuery select = ClientQuery.selecting(input.select(), project, spec.namespace(), spec.kind(), order);
        NavigableSet<Key> keys = keys(files, project, order, spec);
        identity(files, spec, keys).requireSameAs(spec.mapper(), "Job " + spec.jobId());
        PastSource source = new PastSource(PastReads.at(live, input.asOf().timestamp()),
                until == null ? null : PastReads.at(live, until.timestamp()),
                until == null && restore.removeAdded() ? live : null, spec.namespace(), spec.kind(), order, keys);
        return new Pages(source, Mappers.screened(new PastMapper(restore, select, keys == null),
                spec.mapper().undo()));
    }

    /**
     * The reads of the past that deciding a page's {@code keys} takes, besides each one's live read in its commit
     * (which a job counts as {@code read}): a lookup of each at the time restored (and at --until), and, where queries
     * gave the keys ({@code queried}: no keys file), a key for each one they answered: at the time restored, and at
     * --until or, to find what was added since, live ({@code live}: whether a key lives now). The dry run and the
     * job count them alike.
     */
    public static long pastReads(List<Key> keys, Map<Key, SourceRecord> records, Predicate<Key> live,
                                 PastRestore restore, boolean queried) {
        return pastReads(keys, records, live, restore, queried, true);
    }

    /**
     * As above; without {@code lookups} (a copy from another database, whose queries read the entities themselves),
     * the keys the queries answered are looked up nowhere.
     */
    public static long pastReads(List<Key> keys, Map<Key, SourceRecord> records, Predicate<Key> live,
                                 PastRestore restore, boolean queried, boolean lookups) {
        long reads = !lookups ? 0 : keys.size() * (restore.until() ? 2L : 1L);
        if (queried) {
            for (Key key : keys) {
                SourceRecord record = records.get(key);
                if (record == null) {
                    continue;
                }
                boolean laterKey = restore.until() ? record.later() != null
                        : restore.removeAdded() && live.test(key);
                reads += (record.entity() != null ? 1 : 0) + (laterKey ? 1 : 0);
            }
        }
        return reads;
    }
}
