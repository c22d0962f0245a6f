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
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.files.FileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.job.PastRestore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.query.ClientQuery;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.time.Instant;
import java.util.NavigableSet;

/**
 * A restore from the database's past as its runner runs it ({@code "format": "past"}): the moments its spec keeps
 * (so every runner, a resume and Beam's workers read the same past), its pages ({@link PastSource}) and its mapper
 * ({@link PastMapper}).
 */
public final class PastJobs {
    private PastJobs() {
    }

    /** The moment restored, as the spec keeps it. */
    public static PointInTime asOf(MapperSpec spec) {
        return moment(spec, SourceJobs.AS_OF);
    }

    /** The end of the window the restore undoes, or null. */
    public static PointInTime until(MapperSpec spec) {
        return spec.json().hasNonNull(SourceJobs.UNTIL) ? moment(spec, SourceJobs.UNTIL) : null;
    }

    /** How the spec decides each entity (its template's check refused a combination that cannot be decided). */
    public static PastRestore restore(MapperSpec spec) {
        return new PastRestore(SourceJobs.mode(spec), until(spec) != null,
                spec.json().path(SourceJobs.REMOVE_ADDED).asBoolean(false));
    }

    private static PointInTime moment(MapperSpec spec, String field) {
        String text = spec.json().path(field).asText("");
        return PointInTime.parse(text, Instant.now());
    }

    /**
     * The starting ranges of a restore from the past: planned over the kind as it was at its moment, which is what it
     * brings back (the live kind may be empty: a script deleted it); one range over the whole key space when the kind
     * was empty then too (all it does is delete what was added since). The ranges cover the whole key space either
     * way, so the keys merged in from a later moment or the live kind fall in them.
     */
    static ShardPlanner.RangePlan plan(Datastore datastore, KeyOrder order, MapperSpec spec, PlanRequest request,
                                       Cancellation cancellation) {
        return new ShardPlanner(PastReads.at(datastore, asOf(spec).timestamp()), order)
                .planRangesOrWhole(request, cancellation);
    }

    /**
     * {@code spec} with what it selects kept in it ({@link ImportIdentity}: its keys file by the digest of the keys it
     * holds), so that every later run under its id, on any runner, refuses a keys file that changed since
     * ({@link #pages}); refused here already when the job of its id, {@code stored} (or null), kept other keys.
     */
    public static JobSpec stamped(FileStore files, String project, KeyOrder order, JobSpec spec, JobSpec stored) {
        if (!spec.mapper().json().hasNonNull(SourceJobs.KEYS)) {
            return spec;
        }
        ImportIdentity identity = identity(files, spec, keys(files, project, order, spec));
        if (stored != null) {
            identity.requireSameAs(stored.mapper(), "Job " + spec.jobId());
        }
        return SourceJobs.stamped(spec, identity);
    }

    /** The keys of a restore's keys file of its kind and namespace, in key order, or null when it has none. */
    private static NavigableSet<Key> keys(FileStore files, String project, KeyOrder order, JobSpec spec) {
        JsonNode json = spec.mapper().json();
        if (!json.hasNonNull(SourceJobs.KEYS)) {
            return null;
        }
        return KeysFile.selecting(KeysFile.read(files, json.get(SourceJobs.KEYS).asText(), project,
                spec.namespace()), spec.namespace(), spec.kind(), order);
    }

    /** What a restore from the past reads: its moments, and its selection with a keys file's keys by their digest. */
    private static ImportIdentity identity(FileStore files, JobSpec spec, NavigableSet<Key> keys) {
        JsonNode json = spec.mapper().json();
        String file = json.path(SourceJobs.KEYS).asText(null);
        return new ImportIdentity("the database as of " + json.path(SourceJobs.AS_OF).asText()
                + (json.hasNonNull(SourceJobs.UNTIL) ? " until " + json.get(SourceJobs.UNTIL).asText() : ""),
                ManagedImport.selection(spec.namespace(), json.path(SourceJobs.SELECT).asText(null), keys)
                        + ", kind " + spec.kind(),
                file == null ? "" : "the keys file " + ImportIdentity.describe(files, file));
    }

    static SourceJobs.Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        MapperSpec mapper = spec.mapper();
        Mappers.template(mapper.template()).validate(mapper);
        PastRestore restore = restore(mapper);
        PointInTime until = until(mapper);
        Datastore live = PastReads.live(datastore);
        String project = live.getOptions().getProjectId();
        JsonNode json = mapper.json();
        ClientQuery select = ClientQuery.selecting(json.path(SourceJobs.SELECT).asText(null), project,
                spec.namespace(), spec.kind(), order);
        NavigableSet<Key> keys = keys(files, project, order, spec);
        identity(files, spec, keys).requireSameAs(mapper, "Job " + spec.jobId());
        PastSource source = new PastSource(PastReads.at(live, asOf(mapper).timestamp()),
                until == null ? null : PastReads.at(live, until.timestamp()),
                until == null && restore.removeAdded() ? live : null, spec.namespace(), spec.kind(), order, keys);
        return new SourceJobs.Pages(source, Mappers.screened(new PastMapper(restore, select, keys == null), mapper.undo()), null);
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
        long reads = keys.size() * (restore.until() ? 2L : 1L);
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
