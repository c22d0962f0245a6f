package io.keyranger.mapper;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.KeyRangerException;
import io.keyranger.mapper.cel.EntityExpression;
import io.keyranger.mapper.cel.ExpressionCompiler;
import io.keyranger.mapper.cel.PropertyTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The mapper templates KeyRanger knows, by name. */
public final class Mappers {
    private static final Map<String, Template> TEMPLATES = new LinkedHashMap<>();
    /** Templates that commands make jobs of, never offered in lists and forms. */
    private static final Template REVERT = new RevertTemplate();

    static {
        Templates.all().forEach(t -> TEMPLATES.put(t.name(), t));
    }

    private Mappers() {
    }

    /** The spec's mapper for a job: expressions are compiled with every property {@code dyn}. */
    public static PageMapper create(MapperSpec spec) {
        return create(spec, PropertyTypes.unknown());
    }

    /**
     * The spec's mapper, its expressions type-checked against {@code types}; behind a filter when {@code where} is
     * an expression, and behind another when its GQL query has conditions the server cannot apply beside a key range
     * (it then sees only the entities that meet them).
     */
    public static PageMapper create(MapperSpec spec, PropertyTypes types) {
        Template template = template(spec.template());
        EntityExpression where = where(spec, template, types);
        PageMapper mapper = template.create(spec, types);
        if (where != null) {
            mapper = new WhereFilter(mapper, where);
        }
        if (spec.query() != null && spec.query().filtersOnClient()) {
            mapper = WhereFilter.query(mapper, spec.query());
        }
        return screened(mapper, spec.undo());
    }

    /**
     * The transform a copy from another database applies to each entity on the way, as the transform template's
     * spec (its {@code set}, {@code remove} and {@code unindexed} taken from the import's {@code spec}), or null.
     */
    public static MapperSpec copyTransform(MapperSpec spec) {
        return FileTemplates.transform(spec);
    }

    /**
     * {@code mapper} as a job runs it: when it writes, behind the screen that keeps entities Datastore would refuse out
     * of its commits, keeping undo records unless {@code undo} is false. Every job's mapper is screened here, those
     * of the templates and an import's (built beside its source) alike.
     */
    public static PageMapper screened(PageMapper mapper, boolean undo) {
        return mapper.writes() ? new WritableScreen(mapper, undo) : mapper;
    }

    /** The reasons the screen of {@link #screened} leaves an entity unwritten: Datastore would refuse it. */
    public static List<String> unwritableReasons() {
        return List.of(WritableScreen.OVER_ENTITY_LIMIT, WritableScreen.INDEXED_TOO_LONG);
    }

    /**
     * The conditions the spec's mapper applies on the client to every entity it reads, as written: its GQL query's
     * conditions that the server cannot apply beside a key range, and its CEL {@code where}; null when it has none.
     */
    public static String clientConditions(MapperSpec spec) {
        List<String> parts = new ArrayList<>();
        if (spec.query() != null && spec.query().filtersOnClient()) {
            parts.add(spec.query().clientConditionsText());
        }
        if (spec.whereExpression() != null) {
            parts.add("where " + spec.whereExpression());
        }
        return parts.isEmpty() ? null : String.join(" AND ", parts);
    }

    /**
     * How many of the {@code read} entities of a page met the conditions the spec's mapper applies on the client
     * ({@link #clientConditions}), from the counters of its result on that page: those the innermost filter handed
     * to the template (a key whose entity was gone by the lookup is read, but never matched).
     */
    public static long matching(MapperSpec spec, MapResult result, int read) {
        if (spec.whereExpression() != null) { // innermost: counts what reached the template, after the query's filter
            return result.counters().getOrDefault(WhereFilter.MATCHED, 0L);
        }
        if (spec.query() != null && spec.query().filtersOnClient()) {
            return result.counters().getOrDefault(WhereFilter.MATCHING, 0L);
        }
        return read;
    }

    /** The counter of entities a job read but left alone because they do not match its query. */
    public static String notMatchingCounter() {
        return WhereFilter.NOT_MATCHING;
    }

    /** The templates whose jobs change entities in place only: none created or deleted. */
    private static final Set<String> IN_PLACE = Set.of("increment", "set", "remove-property", "rename-property",
            "transform");

    /**
     * Whether the spec's jobs leave every kind's count as it was: they write nothing, or change existing entities in
     * place (none created or deleted). After such a job nothing needs counting again, which on a server without COUNT
     * is a scan of the whole kind.
     */
    public static boolean keepsCounts(MapperSpec spec) {
        Template template = template(spec.template());
        return !template.writes() || IN_PLACE.contains(template.name());
    }

    /** Checks a spec's template parameters and its where expression without running anything. */
    public static void validate(MapperSpec spec) {
        Template template = template(spec.template());
        template.validate(spec);
        where(spec, template, PropertyTypes.unknown());
    }

    private static EntityExpression where(MapperSpec spec, Template template, PropertyTypes types) {
        if (spec.whereExpression() == null) {
            return null;
        }
        if (template.source() != Template.Source.KEY_RANGES) {
            throw new KeyRangerException("\"where\" does not apply to '" + template.name() + "', which reads a file.");
        }
        return ExpressionCompiler.compile("where", spec.whereExpression(), types, ExpressionCompiler.Result.BOOL);
    }

    public static Template template(String name) {
        Template template = name.equals(REVERT.name()) ? REVERT : TEMPLATES.get(name);
        if (template == null) {
            throw new KeyRangerException("Unknown mapper template '" + name + "'; known: "
                    + String.join(", ", names()) + ".");
        }
        return template;
    }

    /** Whether {@code name} is a template's ({@link #template} gives it). */
    public static boolean knows(String name) {
        return name.equals(REVERT.name()) || TEMPLATES.containsKey(name);
    }

    public static List<Template> templates() {
        return List.copyOf(TEMPLATES.values());
    }

    /** Template names, sorted. */
    public static Set<String> names() {
        return new TreeSet<>(TEMPLATES.keySet());
    }

    /**
     * The spec of a job that reverts job {@code jobId}: over its undo records, restoring over later changes too when
     * {@code force}.
     */
    public static MapperSpec revertSpec(String jobId, boolean force) {
        ObjectNode json = JsonNodeFactory
                .instance.objectNode().put("template", REVERT.name()).put("job", jobId);
        if (force) {
            json.put("force", true);
        }
        return MapperSpec.parse(json.toString());
    }

    /**
     * Whether a job of the spec only reads a kind (count, count-by, export): such a job may read the database as it
     * was at a past moment, which is read-only.
     */
    public static boolean onlyReads(MapperSpec spec) {
        Template template = template(spec.template());
        return !template.writes() && template.source() == Template.Source.KEY_RANGES;
    }

    /**
     * The kinds a job of {@code spec} over {@code kinds} writes to in the namespace it reads ({@link
     * Template#writtenKinds}), or null when it may write elsewhere or that cannot be known.
     */
    public static List<String> writtenKinds(MapperSpec spec, List<String> kinds) {
        Template template = template(spec.template());
        List<String> written = new ArrayList<>();
        for (String kind : kinds) {
            List<String> of = template.writtenKinds(spec, kind);
            if (of == null) {
                return null;
            }
            of.stream().filter(k -> !written.contains(k)).forEach(written::add);
        }
        return List.copyOf(written);
    }

    /** Whether a spec is an export in Google's managed format (its file names the folder to write it in). */
    public static boolean writesManagedExport(MapperSpec spec) {
        return spec.template().equals(FileTemplates.EXPORT.name())
                && FileTemplates.MANAGED.equals(spec.json().path("format").asText());
    }

    /** The counter of entities a revert left alone because they changed since the job. */
    public static String revertConflictCounter() {
        return EntitySkips.PREFIX + RevertTemplate.CONFLICT;
    }

    /** Whether a counter field belongs to a count-by histogram, and its bucket. */
    public static String countByBucket(String field) {
        return field.startsWith(Templates.COUNT_BY_PREFIX) ? field.substring(Templates.COUNT_BY_PREFIX.length()) : null;
    }
}
