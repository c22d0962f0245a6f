package io.keyranger.backup;

import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.job.JobIds;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Key;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.job.JobInput;
import java.io.IOException;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import java.nio.file.Path;
import java.util.List;

/**
 * A restore as a job: the import template over a managed export ({@link JobInput.ManagedExport}), over the database
 * as it was at a past moment ({@link JobInput.Past}, {@link #fromPast}) or over another database
 * ({@link JobInput.Database}, {@link #fromDatabase}), with its mode and selection. The command
 * line and the app build restores here, so both run the same job.
 *
 * @param export      the export's folder or metadata file, or null for the past or another database
 * @param asOf        the moment restored (of the past, or of the other database), or null for an export or a
 *                    database read live
 * @param until       the end of the window of damage the restore undoes, or null
 * @param removeAdded whether entities absent at {@code asOf} are deleted
 * @param namespace   the namespace restored
 * @param kind        the kind restored
 * @param mode        what to do with an entity that exists live (without {@code until})
 * @param gql         a query that selects what is restored, or null
 * @param keys        a file of the only keys restored, or null
 * @param undo        whether the restore keeps undo records (so it can be reverted)
 * @param from        the other database restored from, or null
 * @param sample      the percentage of the other database's keys copied, or null for all
 * @param transform   the transform applied to each of its entities on the way, or null
 * @param fromKind    the kind read in the other database when it is written as {@code kind} ({@code --to-kind}), or
 *                    null
 * @param ancestors   whether each entity taken from the other database brings its ancestors there
 *                    ({@code --with-ancestors})
 */
public record RestoreSpec(Path export, PointInTime asOf, PointInTime until, boolean removeAdded, String namespace,
                          String kind, RestoreMode mode, String gql, Path keys, boolean undo, ConnectionSpec from,
                          Double sample, MapperSpec transform, String fromKind, boolean ancestors) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public RestoreSpec {
        if (from != null ? export != null || until != null : (export == null) == (asOf == null)) {
            throw new IllegalArgumentException("a restore is from an export, the past or another database, one of "
                    + "them");
        }
        if (asOf == null && from == null && (until != null || removeAdded)) {
            throw new IllegalArgumentException("--until and --remove-added restore from the past");
        }
        if (from == null && (sample != null || transform != null || fromKind != null || ancestors)) {
            throw new IllegalArgumentException("--sample, --transform, --to-kind and --with-ancestors copy from "
                    + "another database");
        }
    }

    /** A restore from a managed export. */
    public RestoreSpec(Path export, String namespace, String kind, RestoreMode mode, String gql, Path keys,
                       boolean undo) {
        this(export, null, null, false, namespace, kind, mode, gql, keys, undo, null, null, null, null, false);
    }

    /**
     * A restore from the database as it was at {@code asOf} (a moment {@code ReadWindow.open} checked). With
     * {@code until}, it undoes the window from {@code asOf} to {@code until}: entities still as they were at
     * {@code until} go back to {@code asOf}, later writes are left alone and named ({@code mode} is not used). With
     * {@code removeAdded} (only with {@code until} or {@link RestoreMode#OVERWRITE}), entities absent at {@code asOf}
     * are deleted. Its {@link #job} is refused (the import template's check) when the combination cannot be decided.
     */
    public static RestoreSpec fromPast(PointInTime asOf, PointInTime until, boolean removeAdded, String namespace,
                                       String kind, RestoreMode mode, String gql, Path keys, boolean undo) {
        return new RestoreSpec(null, asOf, until, removeAdded, namespace, kind, mode, gql, keys, undo, null, null,
                null, null, false);
    }

    /**
     * A copy or restore from another database ({@code from}, which {@code SourceDatabase.open} opened) as of
     * {@code asOf} (null: live, where its server keeps no past), into the connected {@code namespace}; with
     * {@code removeAdded} (mode overwrite only), what the kind holds here and the source does not is deleted.
     */
    public static RestoreSpec fromDatabase(ConnectionSpec from, PointInTime asOf, boolean removeAdded,
                                           String namespace, String kind, RestoreMode mode, String gql, Path keys,
                                           boolean undo) {
        return new RestoreSpec(null, asOf, null, removeAdded, namespace, kind, mode, gql, keys, undo, from, null,
                null, null, false);
    }

    /**
     * This copy from another database taking only {@code sample} percent of its keys (by a hash of each key's path;
     * null: all) and applying {@code transform} (a spec of the transform template, its {@code set}, {@code remove} and
     * {@code unindexed}; null: none) to each entity on the way.
     */
    public RestoreSpec shaped(Double sample, MapperSpec transform) {
        return new RestoreSpec(export, asOf, until, removeAdded, namespace, kind, mode, gql, keys, undo, from, sample,
                transform, fromKind, ancestors);
    }

    /**
     * This copy from another database bringing each entity it takes with its ancestors that the source holds
     * ({@code ancestors} true), so that a subset (a sample, a query, a keys file) is whole.
     */
    public RestoreSpec withAncestors(boolean ancestors) {
        return new RestoreSpec(export, asOf, until, removeAdded, namespace, kind, mode, gql, keys, undo, from, sample,
                transform, fromKind, ancestors);
    }

    /**
     * This copy from another database writing into {@code toKind} what the source holds in its {@link #kind} (null or
     * the same kind: no rename): keys, and key values of that kind, take the new name.
     */
    public RestoreSpec toKind(String toKind) {
        if (toKind == null || toKind.equals(kind)) {
            return this;
        }
        return new RestoreSpec(export, asOf, until, removeAdded, namespace, toKind, mode, gql, keys, undo, from,
                sample, transform, kind, ancestors);
    }

    /**
     * What the restore {@code mapper} (a {@link #job}'s) restores from, in words: "/exports/x" for an export, "the
     * database as of 2025-01-02T03:04:05Z" for the past; null for any other spec (an import of a file of JSON lines).
     */
    public static String source(MapperSpec mapper) {
        return JobInput.of(mapper).backup();
    }

    /**
     * Writes {@code keys} to {@code file} as a keys file ({@code KeysFile}: what {@code restore --keys} reads), for a
     * restore of only those keys.
     */
    public static void writeKeys(Path file, Iterable<Key> keys) throws IOException {
        KeysFile.write(file, keys);
    }

    /** The job, with {@code jobId} or (null) a new id; its spec is checked as any job's is. */
    public JobSpec job(String jobId) {
        ObjectNode json = JSON.createObjectNode();
        json.put("template", "import");
        if (from != null) {
            json.put(JobInput.FORMAT, JobInput.DATABASE).put(JobInput.FROM_PROJECT, from.projectId())
                    .put(JobInput.FROM_SERVER, from.server().name());
            putIfGiven(json, JobInput.FROM_DATABASE, from.databaseId());
            putIfGiven(json, JobInput.FROM_NAMESPACE, from.namespace());
            putIfGiven(json, JobInput.FROM_EMULATOR_HOST, from.emulatorHost());
            if (from.credentialsFile() != null) {
                json.put(JobInput.FROM_CREDENTIALS, from.credentialsFile().toAbsolutePath().toString());
            }
            if (asOf != null) {
                json.put(JobInput.AS_OF, asOf.time().toString());
            }
            if (removeAdded) {
                json.put(JobInput.REMOVE_ADDED, true);
            }
            if (sample != null) {
                json.put(JobInput.SAMPLE, sample);
            }
            if (fromKind != null) {
                json.put(JobInput.FROM_KIND, fromKind);
            }
            if (ancestors) {
                json.put(JobInput.WITH_ANCESTORS, true);
            }
            if (transform != null) {
                for (String name : List.of("set", "remove", "unindexed")) {
                    if (transform.json().hasNonNull(name)) {
                        json.set(name, transform.json().get(name));
                    }
                }
            }
        } else if (asOf == null) {
            json.put(JobInput.FILE, export.toAbsolutePath().toString()).put(JobInput.FORMAT, JobInput.MANAGED);
        } else {
            json.put(JobInput.FORMAT, JobInput.PAST).put(JobInput.AS_OF, asOf.time().toString());
            if (until != null) {
                json.put(JobInput.UNTIL, until.time().toString());
            }
            if (removeAdded) {
                json.put(JobInput.REMOVE_ADDED, true);
            }
        }
        json.put(JobInput.MODE, mode.id());
        if (gql != null) {
            json.put(JobInput.SELECT, gql);
        }
        if (keys != null) {
            json.put(JobInput.KEYS, keys.toAbsolutePath().toString());
        }
        MapperSpec mapper = MapperSpec.parse(json.toString());
        mapper = undo ? mapper : mapper.withoutUndo();
        Mappers.template("import").validate(mapper);
        String id = jobId != null ? jobId : JobIds.newJobId((from != null ? "copy-" : "restore-") + kind);
        return new JobSpec(id, namespace, kind, mapper, 16, 8, 200, 0); // as a job's defaults
    }

    private static void putIfGiven(ObjectNode json, String name, String value) {
        if (value != null && !value.isEmpty()) {
            json.put(name, value);
        }
    }
}
