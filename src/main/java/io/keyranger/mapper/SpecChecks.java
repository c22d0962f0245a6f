package io.keyranger.mapper;

import io.keyranger.NearestName;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.query.GqlQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A spec's property parameters and its GQL query's properties against what the server says of the kind's properties
 * ({@code __property__}), before the first read: a property the template reads that the kind does not list, or an increment of a property whose
 * values are all of a type it cannot add to. These are warnings, not refusals: the server lists indexed values only,
 * so an unindexed property is real but absent from the list; each entity is still judged on its own when mapped.
 */
public final class SpecChecks {
    private SpecChecks() {
    }

    public static List<String> warnings(MapperSpec spec, String kind, List<PropertyInfo> properties) {
        return warnings(spec, kind, properties, false);
    }

    /**
     * As above; {@code sampled}: the properties are those met in a sample of entities (a server without
     * {@code __property__} metadata), so a property missing from them is only missing from the sample.
     */
    public static List<String> warnings(MapperSpec spec, String kind, List<PropertyInfo> properties, boolean sampled) {
        return List.copyOf(byField(spec, kind, properties, sampled).values());
    }

    /**
     * The same warnings by the spec field each is about (a template's parameter, or {@code "gql"} for the query's),
     * for a form that shows each beside its field as it is typed.
     */
    public static Map<String, String> byField(MapperSpec spec, String kind, List<PropertyInfo> properties,
                                              boolean sampled) {
        Map<String, String> warnings = new LinkedHashMap<>();
        switch (spec.template()) {
            case "increment" -> {
                String property = text(spec, "property");
                Optional<PropertyInfo> info = find(properties, property);
                if (info.isPresent() && info.get().types().stream().noneMatch(SpecChecks::numeric)) {
                    warnings.put("property", "'" + property + "' of " + kind + " holds "
                            + String.join(", ", info.get().types())
                            + " values, not integers or doubles: increment will skip every entity whose value is one of "
                            + "those, each counted under its reason.");
                } else if (info.isEmpty() && !spec.json().path("createMissing").asBoolean(false)) {
                    warnings.put("property", missing(kind, property, properties, sampled) + " increment skips "
                            + "entities without it (set createMissing to create it).");
                }
            }
            case "remove-property", "count-by" -> {
                String property = text(spec, "property");
                if (find(properties, property).isEmpty()) {
                    warnings.put("property", missing(kind, property, properties, sampled));
                }
            }
            case "rename-property" -> {
                String from = text(spec, "from");
                if (find(properties, from).isEmpty()) {
                    warnings.put("from", missing(kind, from, properties, sampled));
                }
            }
            default -> { }
        }
        if (spec.query() != null) {
            List<String> query = queryWarnings(spec.query().query(), properties, sampled);
            if (!query.isEmpty()) {
                warnings.put("gql", String.join(" ", query));
            }
        }
        return warnings;
    }

    /**
     * A GQL query's properties (its conditions, order and projection) against the kind's properties: each one the
     * kind does not list, with the name it most likely meant. Warnings, not refusals: a query may name a property no
     * entity has yet, or one kept unindexed, and still run (it then matches nothing on the server).
     */
    public static List<String> queryWarnings(GqlQuery query, List<PropertyInfo> properties, boolean sampled) {
        Set<String> named = new LinkedHashSet<>(query.projection());
        query.conditions().forEach(c -> named.add(c.property()));
        query.orders().forEach(o -> named.add(o.property()));
        return named.stream().filter(p -> !p.equals("__key__")).filter(p -> find(properties, p).isEmpty())
                .map(p -> missing(query.kind(), p, properties, sampled)).toList();
    }

    private static boolean numeric(String type) {
        return type.equals("integer") || type.equals("double") || type.startsWith("integer/");
    }

    private static String text(MapperSpec spec, String field) {
        return spec.json().path(field).asText("");
    }

    private static Optional<PropertyInfo> find(List<PropertyInfo> properties, String name) {
        return properties.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private static String missing(String kind, String property, List<PropertyInfo> properties, boolean sampled) {
        String suggestion = NearestName.of(property, properties.stream().map(PropertyInfo::name).toList())
                .map(n -> " Did you mean '" + n + "'?").orElse("");
        return sampled ? "'" + property + "' is not in the first " + DatastoreGateway.TYPE_SAMPLE
                + " entities of " + kind + " (this server has no __property__ metadata; later ones may have it)."
                + suggestion
                : "'" + property + "' is not among the indexed properties of " + kind + " (it may exist unindexed)."
                + suggestion;
    }
}
