package io.keyranger.executor.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Datastore;
import io.keyranger.executor.cells.KindSource;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.executor.cells.ReadTimeMapper;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.Template;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import io.keyranger.files.FileStore;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.Cancellation;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;

/**
 * Where every job's pages come from and how its ranges are planned: a kind's keys (live, or at the job's read time),
 * and for jobs that read files, an import of a JSON lines export and a restore from a managed export ({@code
 * "format": "managed"}), the positions of its input's entries ({@link FileSource}): here such a spec's parameters
 * become its input, its page source and its mapper. A restore from the database's past ({@code "format": "past"}) is
 * the same template over the kind's own keys ({@link PastSource}).
 */
public final class SourceJobs {
    /** The counter of an export's entities a restore passed over: of other kinds or namespaces, or not selected. */
    public static final String NOT_SELECTED = "in the export, not selected";
    /** The import template's format of a managed export ({@code "format": "managed"}). */
    public static final String MANAGED = "managed";
    /** The import template's parameter of a GQL query that selects what a restore brings back. */
    public static final String SELECT = "select";
    /** The import template's parameter of a file of keys, the only ones a restore brings back. */
    public static final String KEYS = "keys";
    /** The import template's parameter of what to do with an entity that exists live ({@link RestoreMode}). */
    public static final String MODE = "mode";
    /** The import template's format of the database at a past moment ({@code "format": "past"}). */
    public static final String PAST = "past";
    /** The past's parameter of the moment restored (RFC 3339). */
    public static final String AS_OF = "asOf";
    /** The past's parameter of the end of the window a restore undoes (RFC 3339), or absent. */
    public static final String UNTIL = "until";
    /** The past's parameter that deletes what did not exist at the moment restored. */
    public static final String REMOVE_ADDED = "removeAdded";
    /** The import template's parameter that skips bad lines ({@code run --skip-bad-lines}). */
    public static final String SKIP_BAD_LINES = MapperSpec.SKIP_BAD_LINES;

    private SourceJobs() {
    }

    /** Whether {@code spec}'s template reads a file rather than a kind's key ranges. */
    public static boolean readsFile(MapperSpec spec) {
        return Mappers.template(spec.template()).source() == Template.Source.FILE && !readsPast(spec);
    }

    /** Whether {@code spec} restores from the database's past ({@code "format": "past"}). */
    public static boolean readsPast(MapperSpec spec) {
        return PAST.equals(spec.json().path("format").asText()) // first: a test's own template is not registered
                && Mappers.template(spec.template()).source() == Template.Source.FILE;
    }

    /**
     * The starting ranges of job {@code spec} over its kind's key space, planned as {@code request} asks over the keys
     * it reads: the live kind's; for a restore from the past the kind's at its moment ({@link PastJobs#plan}); for a
     * job with a read time the kind's at that time ({@link ReadTimeMapper#reader}), which may have no entities left.
     */
    public static ShardPlanner.RangePlan planRanges(Datastore datastore, KeyOrder order, JobSpec spec,
                                                    PlanRequest request, Cancellation cancellation) {
        if (readsPast(spec.mapper())) {
            return PastJobs.plan(datastore, order, spec.mapper(), request, cancellation);
        }
        if (spec.mapper().readTime() != null) {
            return new ShardPlanner(ReadTimeMapper.reader(datastore, spec), order)
                    .planRangesOrWhole(request, cancellation);
        }
        return new ShardPlanner(datastore, order).planRanges(request, cancellation);
    }

    /** A job over a file: where its pages come from, its mapper, and its input. */
    public record Opened(FileSource source, PageMapper mapper, ImportInput input) {
    }

    /**
     * What a runner reads a job's pages from and maps them with.
     *
     * @param source the pages: a kind's keys, or the positions of a file's entries
     * @param mapper the job's mapper
     * @param file   the file source, or null for a job over a kind
     */
    public record Pages(PageSource source, PageMapper mapper, FileSource file) {
    }

    /**
     * Where the pages of job {@code spec} (bound) come from and its template's mapper, on any runner: its input's
     * positions for a job that reads a file ({@link #open}), its kind's keys otherwise (at its read time when it has
     * one: {@link ReadTimeMapper}).
     */
    public static Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        if (readsPast(spec.mapper())) {
            return PastJobs.pages(datastore, files, order, spec);
        }
        if (readsFile(spec.mapper())) {
            Opened opened = open(datastore, files, order, spec);
            // a file's job writes: refused when its spec asks for a read time
            return new Pages(opened.source(), ReadTimeMapper.of(datastore, spec, opened.mapper()), opened.source());
        }
        PageMapper mapper = ReadTimeMapper.of(datastore, spec, Mappers.create(spec.mapper()));
        return new Pages(new KindSource(datastore, spec, mapper), mapper, null);
    }

    /**
     * The input an import spec names: its {@code file} as JSON lines, or (with {@code "format": "managed"}) a managed
     * export's entities of {@code namespace} and {@code kind}, narrowed by its {@code select} query and {@code keys}
     * file, all read through {@code files} (the local disk, or Beam's file systems on a pipeline). Bad parameters are
     * refused here, before anything is read.
     */
    public static ImportInput input(Datastore datastore, FileStore files, KeyOrder order, MapperSpec mapper,
                                    String namespace, String kind) {
        JsonNode json = mapper.json();
        String file = json.path("file").asText();
        String database = datastore.getOptions().getDatabaseId() == null ? "" : datastore.getOptions().getDatabaseId();
        if (!MANAGED.equals(json.path("format").asText("jsonl"))) {
            return new ImportFile(files, file, datastore.getOptions().getProjectId(), database);
        }
        return ManagedImport.of(datastore, order, ManagedExport.open(files, file), namespace, kind,
                json.hasNonNull(SELECT) ? json.get(SELECT).asText() : null,
                json.hasNonNull(KEYS) ? json.get(KEYS).asText() : null);
    }

    /** The job {@code spec} (a bound spec of the import template) as its runner runs it, reading through {@code files}. */
    public static Opened open(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        Mappers.template(spec.mapper().template()).validate(spec.mapper());
        ImportInput input = input(datastore, files, order, spec.mapper(), spec.namespace(), spec.kind());
        FileSource source = new FileSource(input, datastore.getOptions().getProjectId(), skipBadLines(spec.mapper()),
                superseded(spec.mapper()), badLines(spec.mapper()));
        PageMapper mapper = Mappers.screened(new ImportMapper(spec.kind(), mode(spec.mapper()), input::placed,
                MANAGED.equals(spec.mapper().json().path("format").asText())),
                spec.mapper().undo());
        return new Opened(source, mapper, input);
    }

    public static RestoreMode mode(MapperSpec spec) {
        return RestoreMode.of(spec.json().path(MODE).asText("overwrite"));
    }

    public static boolean skipBadLines(MapperSpec spec) {
        return spec.json().path(SKIP_BAD_LINES).asBoolean(false);
    }

    /**
     * The spec with {@code identity} (what its input was when it was created) kept in it, so that every later run
     * under its id compares its input with it ({@link ImportIdentity#requireSameAs}), with what its check found that
     * every runner needs: the entries, and the lines whose key a later line names again.
     */
    public static JobSpec stamped(JobSpec spec, ImportIdentity identity, ImportFile.Check check) {
        ObjectNode input = JsonNodeFactory.instance.objectNode();
        identity.stamp(input);
        input.put("entries", check.lines());
        if (!check.superseded().isEmpty()) {
            ArrayNode offsets = input.putArray(SUPERSEDED_FIELD);
            check.superseded().forEach(offsets::add);
        }
        if (!check.badLines().isEmpty()) {
            ObjectNode numbers = input.putObject(BAD_LINES_FIELD);
            new TreeMap<>(check.badLines()).forEach((offset, line) -> numbers.put(Long.toString(offset), line));
        }
        return withInput(spec, input);
    }

    /** The spec with {@code identity} kept in it, for a job whose input needs no check but its selection. */
    static JobSpec stamped(JobSpec spec, ImportIdentity identity) {
        ObjectNode input = JsonNodeFactory.instance.objectNode();
        identity.stamp(input);
        return withInput(spec, input);
    }

    /**
     * {@code spec} stamped as job {@code stored} was (an input {@link ImportIdentity#requireSameAs} found the same),
     * or as {@link #stamped} when that job kept nothing, so that the spec compares equal to the stored one.
     */
    public static JobSpec stampedAs(JobSpec spec, JobSpec stored, ImportIdentity identity, ImportFile.Check check) {
        JsonNode kept = stored.mapper().json().get(ImportIdentity.FIELD);
        return kept == null || !kept.isObject() ? stamped(spec, identity, check)
                : withInput(spec, (ObjectNode) kept.deepCopy());
    }

    private static JobSpec withInput(JobSpec spec, ObjectNode input) {
        ObjectNode json = spec.mapper().json().deepCopy();
        json.set(ImportIdentity.FIELD, input);
        return new JobSpec(spec.jobId(), spec.namespace(), spec.kind(), MapperSpec.parse(json.toString()),
                spec.shards(), spec.workers(), spec.pageSize(), spec.qps(), spec.group());
    }

    /** The field of a job's input that numbers its first bad lines by their offsets. */
    private static final String BAD_LINES_FIELD = "badLines";

    /** The line numbers of the input's first bad lines, by their byte offsets, as the job's check found them. */
    static Map<Long, Long> badLines(MapperSpec spec) {
        Map<Long, Long> numbers = new HashMap<>();
        spec.json().path(ImportIdentity.FIELD).path(BAD_LINES_FIELD).fields()
                .forEachRemaining(e -> numbers.put(Long.parseLong(e.getKey()), e.getValue().asLong()));
        return numbers;
    }

    /** The field of a job's input that lists the lines whose key a later line names again. */
    private static final String SUPERSEDED_FIELD = "superseded";

    /** The byte offsets of the lines whose key a later line names again, as the job's check found them. */
    static Set<Long> superseded(MapperSpec spec) {
        Set<Long> offsets = new HashSet<>();
        spec.json().path(ImportIdentity.FIELD).path(SUPERSEDED_FIELD).forEach(n -> offsets.add(n.asLong()));
        return offsets;
    }

    /**
     * An import's or a restore's kind and options in words, for a message: its mapper spec without what KeyRanger
     * keeps in it.
     */
    public static String describe(JobSpec spec) {
        return "kind " + spec.kind() + (spec.namespace().isEmpty() ? "" : " in namespace " + spec.namespace()) + ", "
                + options(spec);
    }

    /** Whether two specs ask for the same kind, namespace and options, whatever KeyRanger kept in them. */
    public static boolean sameOptions(JobSpec a, JobSpec b) {
        return a.kind().equals(b.kind()) && a.namespace().equals(b.namespace()) && options(a).equals(options(b));
    }

    private static ObjectNode options(JobSpec spec) {
        ObjectNode json = spec.mapper().json().deepCopy();
        json.remove(ImportIdentity.FIELD);
        return json;
    }

    /** The entries the input held when the job was created (its check counted them), or -1. */
    public static long entries(MapperSpec spec) {
        return spec.json().path(ImportIdentity.FIELD).path("entries").asLong(-1);
    }
}
