package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.EntityJson;
import io.keyranger.keys.KeyPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The built-in templates. Each declares its parameters, whether it writes, and whether it is idempotent. */
final class Templates {
    private Templates() {
    }

    static List<Template> all() {
        return List.of(COUNT, TOUCH, PropertyTemplates.INCREMENT, PropertyTemplates.SET, TRANSFORM,
                PropertyTemplates.REMOVE_PROPERTY, PropertyTemplates.RENAME_PROPERTY, DELETE, COPY,
                COUNT_BY, FileTemplates.EXPORT, FileTemplates.IMPORT);
    }

    static final Template TRANSFORM = new TransformTemplate();

    static final Template COUNT = new BaseTemplate("count", "Count the entities; writes nothing.", false, true) {
        @Override
        PageMapper build(SpecReader r) {
            return new FunctionMapper(name(), false, false, 1, page -> MapResult.none());
        }
    };

    static final Template TOUCH = new BaseTemplate("touch", "Rewrite every entity unchanged (refreshes indexes).", true, true) {
        @Override
        PageMapper build(SpecReader r) {
            return new FunctionMapper(name(), true, true, 1,
                    page -> new MapResult(page.entities(), List.of(), 0, Map.of()));
        }
    };

    static final Template DELETE = new BaseTemplate("delete", "Delete the entities.", true, true) {
        @Override
        public boolean offersBackup() {
            return true;
        }

        @Override
        PageMapper build(SpecReader r) {
            return new FunctionMapper(name(), false, true, 1,
                    page -> new MapResult(List.of(), page.keys(), 0, Map.of()));
        }
    };

    static final Template COPY = new BaseTemplate("copy",
            "Copy each entity to another kind and/or namespace, keeping its id or name.", true, true,
            Param.optional("toKind", Param.Type.KIND, "the target kind (default: the same kind)", null),
            Param.optional("toNamespace", Param.Type.NAMESPACE, "the target namespace (default: the same)", null),
            Param.optional("keepAncestors", Param.Type.BOOLEAN, "keep the ancestor path", true)) {
        /** Its target kind, where it reads; a copy to another namespace writes where the reader's kinds are not. */
        @Override
        public List<String> writtenKinds(MapperSpec spec, String kind) {
            if (spec.json().hasNonNull("toNamespace")) {
                return null;
            }
            return List.of(spec.json().hasNonNull("toKind") ? spec.json().get("toKind").asText() : kind);
        }

        @Override
        PageMapper build(SpecReader r) {
            String toKind = r.string("toKind", null);
            String toNamespace = r.json("toNamespace");
            boolean keepAncestors = r.bool("keepAncestors", true);
            if (toKind == null && toNamespace == null) {
                throw r.error("toKind", "or 'toNamespace' must be given, or the copy would overwrite the source");
            }
            return new FunctionMapper(name(), true, true, 2, page -> {
                List<Entity> puts = new ArrayList<>();
                for (Entity e : page.entities()) {
                    puts.add(Entity.newBuilder(target(e.getKey(), toKind, toNamespace, keepAncestors), e).build());
                }
                return new MapResult(puts, List.of(), 0, Map.of());
            });
        }
    };

    static Key target(Key source, String toKind, String toNamespace, boolean keepAncestors) {
        Key.Builder b = source.hasId()
                ? Key.newBuilder(source.getProjectId(), toKind == null ? source.getKind() : toKind, source.getId(),
                        source.getDatabaseId() == null ? "" : source.getDatabaseId())
                : Key.newBuilder(source.getProjectId(), toKind == null ? source.getKind() : toKind, source.getName(),
                        source.getDatabaseId() == null ? "" : source.getDatabaseId());
        b.setNamespace(toNamespace == null ? source.getNamespace() : toNamespace);
        if (keepAncestors) {
            b.addAncestors(source.getAncestors());
        }
        return b.build();
    }

    static final Template COUNT_BY = new BaseTemplate("count-by",
            "Count entities by the value of a property into sharded counters (a histogram).", false, true,
            Param.required("property", Param.Type.PROPERTY, "the property whose values are counted")) {
        @Override
        PageMapper build(SpecReader r) {
            String property = r.property("property");
            return new FunctionMapper(name(), true, false, 1, page -> {
                Map<String, Long> counts = new HashMap<>();
                for (Entity e : page.entities()) {
                    String bucket = e.contains(property) ? EntityJson.cell(e.getValue(property)) : "(missing)";
                    counts.merge(COUNT_BY_PREFIX + truncate(bucket), 1L, Long::sum);
                }
                return new MapResult(List.of(), List.of(), 0, counts);
            });
        }
    };

    /** Counter fields of count-by start with this. */
    static final String COUNT_BY_PREFIX = "by:";

    private static String truncate(String bucket) {
        return bucket.length() > 200 ? bucket.substring(0, 200) + "…" : bucket;
    }

    static List<PathElement> pathOf(Key key) {
        return KeyPaths.path(key);
    }
}
