package io.keyranger.mapper;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyranger.KeyRangerException;
import java.util.Iterator;
import java.util.Set;

/** Reads a template's parameters from its spec with messages that name the field and what is expected. */
final class SpecReader {
    private final MapperSpec spec;
    private final Template template;

    SpecReader(MapperSpec spec, Template template) {
        this.spec = spec;
        this.template = template;
        rejectUnknown();
    }

    private void rejectUnknown() {
        Set<String> known = new java.util.HashSet<>(Set.of("template", "where", "gql"));
        template.params().forEach(p -> known.add(p.name()));
        for (Iterator<String> it = spec.json().fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                throw error(field, "is not a parameter of this template; its parameters are "
                        + String.join(", ", template.params().stream().map(Param::name).toList()));
            }
        }
    }

    JsonNode node(String name) {
        JsonNode node = spec.json().get(name);
        Param param = template.params().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        if ((node == null || node.isNull()) && param.required() && param.type() != Param.Type.VALUE) {
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

    ParameterException error(String field, String problem) {
        return new ParameterException(template.name(), field, problem);
    }

    private void checkPropertyName(String field, String value) {
        if (value.matches("__.*__")) {
            throw error(field, "names a reserved property ('" + value + "'); names like __x__ are reserved");
        }
        if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 1500) {
            throw error(field, "is longer than 1,500 bytes");
        }
    }
}
