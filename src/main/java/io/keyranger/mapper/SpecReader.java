package io.keyranger.mapper;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyranger.mapper.cel.PropertyTypes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a template's parameters from its spec with messages that name the field and what is expected. */
final class SpecReader {
    private final MapperSpec spec;
    private final Template template;
    private final PropertyTypes types;

    SpecReader(MapperSpec spec, Template template, PropertyTypes types) {
        this.spec = spec;
        this.template = template;
        this.types = types;
        rejectUnknown();
    }

    /** The types the template's expressions are compiled against. */
    PropertyTypes types() {
        return types;
    }

    private void rejectUnknown() {
        // a job's read time is KeyRanger's too, set when it is created; a job that writes refuses one when it runs
        Set<String> known = new HashSet<>(Set.of("template", "where", "gql", MapperSpec.READ_TIME));
        if (template.writes()) {
            known.add("undo"); // every writing job's: whether it keeps undo records ({@link MapperSpec#undo})
        }
        if (template.source() == Template.Source.FILE) {
            known.add("input"); // what its input was when its job was created, kept by KeyRanger
        }
        template.params().forEach(p -> known.add(p.name()));
        for (Iterator<String> it = spec.json().fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                throw error(field, "is not a parameter of this template; its parameters are "
                        + String.join(", ", template.params().stream().map(Param::name).toList()));
            }
        }
    }

    /** The spec read. */
    MapperSpec spec() {
        return spec;
    }

    JsonNode node(String name) {
        JsonNode node = spec.json().get(name);
        Param param = template.params().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        if ((node == null || node.isNull()) && param.mustBeGiven()) {
            throw error(name, "is required: " + param.description());
        }
        return node;
    }

    String string(String name, String fallback) {
        JsonNode node = node(name);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isTextual() || node.asText().isEmpty()) {
            throw error(name, "must be a non-empty string (got " + node + ")");
        }
        return node.asText();
    }

    /** A string that may be empty (a namespace), or null when absent. */
    String json(String name) {
        JsonNode node = node(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw error(name, "must be a string (got " + node + ")");
        }
        return node.asText();
    }

    String property(String name) {
        String value = string(name, null);
        if (value != null) {
            checkPropertyName(name, value);
        }
        return value;
    }

    boolean bool(String name, boolean fallback) {
        JsonNode node = node(name);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isBoolean()) {
            throw error(name, "must be true or false (got " + node + ")");
        }
        return node.asBoolean();
    }

    Number number(String name) {
        JsonNode node = node(name);
        if (node == null || !node.isNumber()) {
            throw error(name, "must be a number, such as 10 or 2.5 (got " + node + ")");
        }
        return node.isIntegralNumber() ? (Number) node.asLong() : (Number) node.asDouble();
    }

    /** A JSON object of property name to CEL expression text, in the spec's order; empty when absent. */
    Map<String, String> expressions(String name) {
        JsonNode node = node(name);
        Map<String, String> expressions = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return expressions;
        }
        if (!node.isObject()) {
            throw error(name, "must be a JSON object of property name to expression, such as {\"balance\": "
                    + "\"balance * 2\"} (got " + node + ")");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            checkPropertyName(name, field.getKey());
            if (field.getKey().isEmpty()) {
                throw error(name, "names a property with an empty name");
            }
            if (!field.getValue().isTextual() || field.getValue().asText().isBlank()) {
                throw error(name, "needs an expression as a string for '" + field.getKey() + "' (got "
                        + field.getValue() + ")");
            }
            expressions.put(field.getKey(), field.getValue().asText());
        }
        return expressions;
    }

    /** A JSON list of property names; empty when absent. */
    List<String> properties(String name) {
        JsonNode node = node(name);
        List<String> names = new ArrayList<>();
        if (node == null || node.isNull()) {
            return names;
        }
        if (!node.isArray()) {
            throw error(name, "must be a JSON list of property names, such as [\"legacy\"] (got " + node + ")");
        }
        for (JsonNode item : node) {
            if (!item.isTextual() || item.asText().isEmpty()) {
                throw error(name, "must list property names as non-empty strings (got " + item + ")");
            }
            checkPropertyName(name, item.asText());
            names.add(item.asText());
        }
        return names;
    }

    ParameterException error(String field, String problem) {
        return new ParameterException(template.name(), field, problem);
    }

    private void checkPropertyName(String field, String value) {
        if (value.matches("__.*__")) {
            throw error(field, "names a reserved property ('" + value + "'); names like __x__ are reserved");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length > 1500) {
            throw error(field, "is longer than 1,500 bytes");
        }
    }
}
