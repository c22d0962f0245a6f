package io.keyranger.executor.source;

import java.util.function.Supplier;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.KeyRangerException;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What KeyRanger keeps in the spec of a job that brings entities in ({@link ImportIdentity#FIELD}): what its input
 * was when the job was created, and what its check found that every runner needs (the entries, the lines a later
 * line supersedes, the numbers of bad lines skipped), so that every later run under its id reads the same.
 */
final class InputStamps {
    /** The field of a job's input that numbers its first bad lines by their offsets. */
    private static final String BAD_LINES_FIELD = "badLines";
    /** The field of a job's input that lists the lines whose key a later line names again. */
    private static final String SUPERSEDED_FIELD = "superseded";

    private InputStamps() {
    }

    /** The spec with {@code identity} and what the check of its file found kept in it. */
    static JobSpec stamped(JobSpec spec, ImportIdentity identity, ImportFile.Check check) {
        ObjectNode input = JsonNodeFactory.instance.objectNode();
        identity.stamp(input);
        input.put("entries", check.lines());
        if (!check.superseded().isEmpty()) {
            ArrayNode offsets = input.putArray(SUPERSEDED_FIELD);
            check.superseded().forEach(offsets::add);
        }
        if (check.eachKeyOnce()) {
            input.put(JobInput.EACH_KEY_ONCE, true);
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
     * {@code spec} as a restore that reads no file keeps what it selects: unchanged without a keys file
     * ({@code identity} null), else stamped with its identity, which must be the one of the stored job of its id
     * ({@code earlier}, or null) when there is one.
     */
    static JobSpec stampedSelection(JobSpec spec, InputRun.Earlier earlier, Supplier<ImportIdentity> identity) {
        if (identity == null) {
            return spec;
        }
        ImportIdentity selected = identity.get();
        if (earlier != null) {
            selected.requireSameAs(earlier.spec().mapper(), "Job " + spec.jobId());
        }
        return stamped(spec, selected);
    }

    /**
     * {@code spec} stamped as job {@code stored} was (an input {@link ImportIdentity#requireSameAs} found the same),
     * or as {@link #stamped} when that job kept nothing, so that the spec compares equal to the stored one.
     */
    static JobSpec stampedAs(JobSpec spec, JobSpec stored, ImportIdentity identity, ImportFile.Check check) {
        JsonNode kept = stored.mapper().json().get(ImportIdentity.FIELD);
        return kept == null || !kept.isObject() ? stamped(spec, identity, check)
                : withInput(spec, (ObjectNode) kept.deepCopy());
    }

    private static JobSpec withInput(JobSpec spec, ObjectNode input) {
        ObjectNode json = spec.mapper().json().deepCopy();
        json.set(ImportIdentity.FIELD, input);
        return spec.withMapper(MapperSpec.parse(json.toString()));
    }

    /** The line numbers of the input's first bad lines, by their byte offsets, as the job's check found them. */
    static Map<Long, Long> badLines(MapperSpec spec) {
        Map<Long, Long> numbers = new HashMap<>();
        spec.json().path(ImportIdentity.FIELD).path(BAD_LINES_FIELD).fields()
                .forEachRemaining(e -> numbers.put(Long.parseLong(e.getKey()), e.getValue().asLong()));
        return numbers;
    }

    /** The byte offsets of the lines whose key a later line names again, as the job's check found them. */
    static Set<Long> superseded(MapperSpec spec) {
        Set<Long> offsets = new HashSet<>();
        spec.json().path(ImportIdentity.FIELD).path(SUPERSEDED_FIELD).forEach(n -> offsets.add(n.asLong()));
        return offsets;
    }

    /** The entries the input held when the job was created (its check counted them), or -1. */
    static long entries(MapperSpec spec) {
        return spec.json().path(ImportIdentity.FIELD).path("entries").asLong(-1);
    }

    /**
     * Refuses a run under the id of job {@code was} that asks for another kind, namespace or options than it was
     * started with (whatever KeyRanger kept in either), nothing written; {@code how} says how to resume it.
     */
    static void requireSameOptions(JobSpec asked, JobSpec was, String how) {
        if (!asked.kind().equals(was.kind()) || !asked.namespace().equals(was.namespace())
                || !options(asked).equals(options(was))) {
            throw new KeyRangerException("Job " + asked.jobId() + " was started with other options: "
                    + describe(was) + "; this run asks for " + describe(asked) + ". Nothing was written. " + how);
        }
    }

    /** An import's or a restore's kind and options in words: its mapper spec without what KeyRanger keeps in it. */
    private static String describe(JobSpec spec) {
        return "kind " + spec.kind() + (spec.namespace().isEmpty() ? "" : " in namespace " + spec.namespace()) + ", "
                + options(spec);
    }

    private static ObjectNode options(JobSpec spec) {
        ObjectNode json = spec.mapper().json().deepCopy();
        json.remove(ImportIdentity.FIELD);
        return json;
    }
}
