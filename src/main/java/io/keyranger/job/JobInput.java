package io.keyranger.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ServerType;
import java.nio.file.Path;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What a job reads: the keys of its kind (live, or at its read time), a file of JSON lines, a managed export, the
 * database as it was at a past moment, or another database. A job's spec names its input in its mapper's parameters (the import template's
 * {@code file}, {@code format}, {@code asOf}...); {@link #of} is the one place they are read. The engine opens an input
 * as it runs ({@code executor.source.InputRun}); front ends ask it what they show and check.
 */
public sealed interface JobInput permits JobInput.KindKeys, JobInput.JsonLines, JobInput.ManagedExport,
        JobInput.Past, JobInput.Database {
    /** The import template's parameter of its input's format: {@link #JSONL}, {@link #MANAGED} or {@link #PAST}. */
    String FORMAT = "format";
    /** A file of JSON lines (an export's), the import template's default format. */
    String JSONL = "jsonl";
    /** A managed export: Google's format. */
    String MANAGED = "managed";
    /** The database at a past moment. */
    String PAST = "past";
    /** Another database (another project, database or namespace, on this server or another). */
    String DATABASE = "database";
    /** Another database's parameter of its project. */
    String FROM_PROJECT = "fromProject";
    /** Another database's parameter of its named database (absent: the default one). */
    String FROM_DATABASE = "fromDatabase";
    /** Another database's parameter of its namespace (absent: the default one). */
    String FROM_NAMESPACE = "fromNamespace";
    /** Another database's parameter of its emulator's host:port (absent: production). */
    String FROM_EMULATOR_HOST = "fromEmulatorHost";
    /** Another database's parameter of the path of a service-account key file (never the key itself). */
    String FROM_CREDENTIALS = "fromCredentials";
    /** Another database's parameter of what its server is ({@link ServerType}'s name). */
    String FROM_SERVER = "fromServer";
    /** Another database's parameter of the percentage of its keys copied. */
    String SAMPLE = "sample";
    /** Another database's parameter of the kind read there, when the job's kind is another name for it. */
    String FROM_KIND = "fromKind";
    /** Another database's parameter that brings each chosen entity's ancestors with it. */
    String WITH_ANCESTORS = "withAncestors";
    /** The parameter of the file read (a managed export's folder or metadata file). */
    String FILE = "file";
    /** The parameter of a GQL query that selects what a restore brings back. */
    String SELECT = "select";
    /** The parameter of a file of keys, the only ones a restore brings back. */
    String KEYS = "keys";
    /** The parameter of what to do with an entity that exists live ({@link RestoreMode}). */
    String MODE = "mode";
    /** The past's parameter of the moment restored (RFC 3339). */
    String AS_OF = "asOf";
    /** The past's parameter of the end of the window a restore undoes (RFC 3339), or absent. */
    String UNTIL = "until";
    /** The past's parameter that deletes what did not exist at the moment restored. */
    String REMOVE_ADDED = "removeAdded";
    /** The parameter of what KeyRanger found of the input when its job was created, kept to compare later runs with. */
    String STAMP = "input";
    /**
     * The field of the {@link #STAMP} that says the input's check found each target key in one entry at most (a file's
     * earlier lines of a key passed over), so that the job writes each key once.
     */
    String EACH_KEY_ONCE = "eachKeyOnce";

    /**
     * The parameters of {@code mapper} that name its input (and what KeyRanger stamped of it), which a stored job keeps
     * apart from its mapper's: the read time of a job over its kind's keys; the import template's file, format,
     * moments, selection and mode.
     */
    static List<String> parameters(MapperSpec mapper) {
        return of(mapper).bringsEntitiesIn() ? List.of(FORMAT, FILE, SELECT, KEYS, MODE, AS_OF, UNTIL, REMOVE_ADDED,
                FROM_PROJECT, FROM_DATABASE, FROM_NAMESPACE, FROM_EMULATOR_HOST, FROM_CREDENTIALS, FROM_SERVER,
                SAMPLE, FROM_KIND, WITH_ANCESTORS, "set", "remove", "unindexed", MapperSpec.SKIP_BAD_LINES, STAMP)
                : List.of(MapperSpec.READ_TIME);
    }

    /**
     * The input {@code mapper} names (a spec its template checked): a spec of the import template reads its file or
     * the past; any other (a test's own template too) reads its kind's keys.
     */
    static JobInput of(MapperSpec mapper) {
        if (!Mappers.knows(mapper.template())
                || Mappers.template(mapper.template()).source() != Template.Source.FILE) {
            return new KindKeys(mapper.readTime());
        }
        JsonNode json = mapper.json();
        RestoreMode mode = RestoreMode.of(json.path(MODE).asText(RestoreMode.OVERWRITE.id()));
        String select = json.hasNonNull(SELECT) ? json.get(SELECT).asText() : null;
        String keys = json.hasNonNull(KEYS) ? json.get(KEYS).asText() : null;
        String format = json.path(FORMAT).asText(JSONL);
        if (PAST.equals(format)) {
            Instant now = Instant.now();
            try {
                return new Past(PointInTime.parse(json.path(AS_OF).asText(""), now),
                        json.hasNonNull(UNTIL) ? PointInTime.parse(json.get(UNTIL).asText(), now) : null,
                        json.path(REMOVE_ADDED).asBoolean(false), select, keys, mode);
            } catch (RuntimeException e) {
                Mappers.template(mapper.template()).validate(mapper); // the template's words for a bad moment
                throw e;
            }
        }
        if (DATABASE.equals(format)) {
            try {
                return new Database(source(json), json.hasNonNull(AS_OF) ? PointInTime.parse(json.get(AS_OF).asText(),
                        Instant.now()) : null, json.path(REMOVE_ADDED).asBoolean(false), select, keys, mode,
                        json.hasNonNull(FROM_KIND) ? json.get(FROM_KIND).asText() : null,
                        json.path(WITH_ANCESTORS).asBoolean(false));
            } catch (RuntimeException e) {
                Mappers.template(mapper.template()).validate(mapper); // the template's words for a bad source
                throw e;
            }
        }
        String file = json.path(FILE).asText();
        boolean skipBadLines = json.path(MapperSpec.SKIP_BAD_LINES).asBoolean(false);
        return MANAGED.equals(format) ? new ManagedExport(file, select, keys, mode, skipBadLines)
                : new JsonLines(file, skipBadLines);
    }

    /** The input of a stored or given job. */
    static JobInput of(JobSpec spec) {
        return of(spec.mapper());
    }

    /** The other database a spec's parameters name, read-only. */
    private static ConnectionSpec source(JsonNode json) {
        String host = json.hasNonNull(FROM_EMULATOR_HOST) ? json.get(FROM_EMULATOR_HOST).asText() : null;
        String credentials = json.hasNonNull(FROM_CREDENTIALS) ? json.get(FROM_CREDENTIALS).asText() : null;
        return new ConnectionSpec(host, json.path(FROM_PROJECT).asText(), json.path(FROM_DATABASE).asText(""),
                json.path(FROM_NAMESPACE).asText(""), credentials == null ? null : Path.of(credentials), true,
                json.hasNonNull(FROM_SERVER) ? ServerType.valueOf(json.get(FROM_SERVER).asText()) : null);
    }

    /** One case of each input, for the code that opens them ({@link #match}). */
    interface Cases<R> {
        R kindKeys(KindKeys input);

        R jsonLines(JsonLines input);

        R managedExport(ManagedExport input);

        R past(Past input);

        R database(Database input);
    }

    /** What {@code cases} gives for this input. */
    <R> R match(Cases<R> cases);

    /**
     * Whether the job brings entities in from its input (a file, an export, the past) rather than mapping its kind's
     * own: it writes into its kind, which need not hold anything live; a run under the id of a stored job of the same
     * input resumes it (its input checked to be the same), where a job over key ranges needs an id of its own.
     */
    default boolean bringsEntitiesIn() {
        return true;
    }

    /** The moments the job reads the past at: a restore's as-of and until, a snapshot's read time; or none. */
    default List<PointInTime> moments() {
        return List.of();
    }

    /**
     * The moments a running job is stopped at when they leave the server's window: a restore's; a snapshot (an
     * export's, a count's) is not watched, as a long export could otherwise never end on a server whose window is
     * minutes (a read the server answers as a dropped version still stops it).
     */
    default List<PointInTime> watchedMoments() {
        return List.of();
    }

    /** Whether the job restores the past, for the words of a moment that left the window ({@link MomentWatch}). */
    default boolean restoresThePast() {
        return false;
    }

    /**
     * What the job restores from, in words: "/exports/x" for an export, "the database as of ..." for the past; null
     * for an input that is not a backup (a file of JSON lines, a kind).
     */
    default String backup() {
        return null;
    }

    /**
     * Whether a job of {@code mapper} (this input's) writes each key once at most, so that one undo record a commit is
     * enough ({@code PageMapper#writesEachKeyOnce}): the past goes over the kind's own keys; a file or an export when
     * its check found no key in two entries it writes ({@link #EACH_KEY_ONCE}, stamped when its job was created: a
     * job stamped before that field existed keeps a record a key, as it began).
     */
    default boolean writesEachKeyOnce(MapperSpec mapper) {
        return mapper.json().path(STAMP).path(EACH_KEY_ONCE).asBoolean(false);
    }

    /** The files the job reads, where every runner's workers must reach them. */
    default List<String> files() {
        return List.of();
    }

    /** The kind's keys, live ({@code readTime} null) or as they were at the job's read time. */
    record KindKeys(Instant readTime) implements JobInput {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.kindKeys(this);
        }

        @Override
        public boolean bringsEntitiesIn() {
            return false;
        }

        @Override
        public boolean writesEachKeyOnce(MapperSpec mapper) {
            return Mappers.create(mapper).writesEachKeyOnce();
        }

        @Override
        public List<PointInTime> moments() {
            return readTime == null ? List.of() : List.of(PointInTime.at(readTime));
        }
    }

    /** A file of JSON lines an export wrote; bad lines refuse it unless skipped. */
    record JsonLines(String file, boolean skipBadLines) implements JobInput {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.jsonLines(this);
        }

        @Override
        public List<String> files() {
            return List.of(file);
        }
    }

    /**
     * A managed export's entities of the job's kind and namespace, narrowed by a query ({@code select}) and a file of
     * keys ({@code keys}), each null for none.
     */
    record ManagedExport(String file, String select, String keys, RestoreMode mode, boolean skipBadLines)
            implements JobInput {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.managedExport(this);
        }

        @Override
        public String backup() {
            return file;
        }

        @Override
        public List<String> files() {
            return keys == null ? List.of(file) : List.of(file, keys);
        }
    }

    /**
     * The database as of {@code asOf}; with {@code until}, only what was still as it was then goes back; with {@code
     * removeAdded}, what did not exist at {@code asOf} is deleted. {@code select} and {@code keys} narrow it.
     */
    record Past(PointInTime asOf, PointInTime until, boolean removeAdded, String select, String keys,
                RestoreMode mode) implements JobInput {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.past(this);
        }

        @Override
        public List<PointInTime> moments() {
            return Stream.of(asOf, until).filter(Objects::nonNull).toList();
        }

        @Override
        public List<PointInTime> watchedMoments() {
            return moments();
        }

        @Override
        public boolean restoresThePast() {
            return true;
        }

        @Override
        public String backup() {
            return "the database as of " + asOf.time();
        }

        @Override
        public boolean writesEachKeyOnce(MapperSpec mapper) {
            return true;
        }

        @Override
        public List<String> files() {
            return keys == null ? List.of() : List.of(keys);
        }

        /** How each entity is decided (the template's check refused a combination that cannot be decided). */
        public PastRestore restore() {
            return new PastRestore(mode, until != null, removeAdded);
        }
    }

    /**
     * Another database's entities of a kind ({@code source}: its project, database, namespace and server, read-only),
     * read as of {@code asOf} (null: live, on a server that keeps no past) and placed in the job's partition; decided
     * against the live ones as a restore from an export is ({@code mode}); with {@code removeAdded}, what the job's
     * kind holds and the source does not is deleted. {@code select} and {@code keys} narrow it. {@code fromKind} is
     * the kind read there when the job writes it under another name (its own kind), else null. With
     * {@code withAncestors}, each entity taken brings its ancestors that the source holds, decided as it is.
     */
    record Database(ConnectionSpec source, PointInTime asOf, boolean removeAdded, String select, String keys,
                    RestoreMode mode, String fromKind, boolean withAncestors) implements JobInput {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.database(this);
        }

        /**
         * What it restores from, in words. It has no {@link #moments}: they are the source server's to keep, checked
         * against its window as the source is opened, not the connected one's.
         */
        @Override
        public String backup() {
            return Partition.of(source).describe() + (asOf == null ? " (live)" : " as of " + asOf.time());
        }

        /** Not with a kind renamed (two paths can name one key) or with ancestors (shared by pages apart). */
        @Override
        public boolean writesEachKeyOnce(MapperSpec mapper) {
            return fromKind == null && !withAncestors;
        }

        @Override
        public List<String> files() {
            return keys == null ? List.of() : List.of(keys);
        }

        /** How each entity is decided (the template's check refused a combination that cannot be decided). */
        public PastRestore restore() {
            return new PastRestore(mode, false, removeAdded, RestoreMode.Backup.SOURCE);
        }
    }
}
