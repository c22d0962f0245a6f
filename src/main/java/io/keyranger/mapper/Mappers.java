package io.keyranger.mapper;

import io.keyranger.KeyRangerException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The mapper templates KeyRanger knows, by name. */
public final class Mappers {
    private static final Map<String, Template> TEMPLATES = new LinkedHashMap<>();

    static {
        Templates.all().forEach(t -> TEMPLATES.put(t.name(), t));
    }

    private Mappers() {
    }

    /**
     * The spec's mapper; when its GQL query has conditions the server cannot apply beside a key range, it sees only
     * the entities that meet them.
     */
    public static PageMapper create(MapperSpec spec) {
        PageMapper mapper = template(spec.template()).create(spec);
        if (spec.query() != null && spec.query().filtersOnClient()) {
            return new MatchingMapper(mapper, spec.query()::matches);
        }
        return mapper;
    }

    /** The counter of entities a job read but left alone because they do not match its query. */
    public static String notMatchingCounter() {
        return MatchingMapper.NOT_MATCHING;
    }

    public static Template template(String name) {
        Template template = TEMPLATES.get(name);
        if (template == null) {
            throw new KeyRangerException("Unknown mapper template '" + name + "'; known: "
                    + String.join(", ", names()) + ".");
        }
        return template;
    }

    public static List<Template> templates() {
        return List.copyOf(TEMPLATES.values());
    }

    /** Template names, sorted. */
    public static Set<String> names() {
        return new TreeSet<>(TEMPLATES.keySet());
    }

    /** Whether a counter field belongs to a count-by histogram, and its bucket. */
    public static String countByBucket(String field) {
        return field.startsWith(Templates.COUNT_BY_PREFIX) ? field.substring(Templates.COUNT_BY_PREFIX.length()) : null;
    }
}
