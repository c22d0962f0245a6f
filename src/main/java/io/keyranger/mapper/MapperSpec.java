package io.keyranger.mapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import java.util.ArrayList;
import java.util.List;

/**
 * A mapper as JSON: {@code {"template": NAME, ...parameters, "where": ...}}. {@code where} is either a list of
 * equality filters, {@code [{"property": P, "value": V}]}, that the server applies (JSON types give the value's
 * type; whole numbers are integers), or a CEL expression as a string, {@code "has(balance) && tier != 'closed'"},
 * that KeyRanger evaluates on each entity it reads.
 *
 * @param template        the template name
 * @param json            the whole spec, for the template's own parameters
 * @param where           the equality filters; empty when where is an expression
 * @param whereExpression the where expression, or null when where is absent or a list of filters
 */
public record MapperSpec(String template, ObjectNode json, List<PropertyFilter> where, String whereExpression) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public MapperSpec {
        where = List.copyOf(where);
    }

    public MapperSpec(String template, ObjectNode json, List<PropertyFilter> where) {
        this(template, json, where, null);
    }

    /**
     * Reads and validates a spec file (its template and parameters), with the messages the CLI, the app and the Beam
     * runner all give.
     */
    public static MapperSpec read(java.nio.file.Path file) {
        String text;
        try {
            text = java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new KeyRangerException("Mapper file not found: " + file);
        } catch (java.io.IOException e) {
            throw new KeyRangerException("Cannot read the mapper file " + file + ": " + e.getMessage());
        }
        MapperSpec spec = parse(text);
        Mappers.validate(spec);
        return spec;
    }

    public static MapperSpec parse(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new KeyRangerException("The mapper spec is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ").");
        }
        if (root == null || !root.isObject()) {
            throw new KeyRangerException("The mapper spec must be a JSON object such as {\"template\": \"count\"}.");
        }
        JsonNode template = root.get("template");
        if (template == null || !template.isTextual() || template.asText().isBlank()) {
            throw new KeyRangerException("The mapper spec needs a \"template\" name, e.g. {\"template\": \"count\"}.");
        }
        JsonNode where = root.get("where");
        if (where != null && where.isTextual()) {
            if (where.asText().isBlank()) {
                throw new KeyRangerException("\"where\" is empty: give a CEL expression such as \"tier == 'pro'\", "
                        + "or leave it out.");
            }
            return new MapperSpec(template.asText(), (ObjectNode) root, List.of(), where.asText());
        }
        return new MapperSpec(template.asText(), (ObjectNode) root, where(where), null);
    }

    private static List<PropertyFilter> where(JsonNode where) {
        List<PropertyFilter> filters = new ArrayList<>();
        if (where == null || where.isNull()) {
            return filters;
        }
        if (!where.isArray()) {
            throw new KeyRangerException("\"where\" must be a list of {\"property\": P, \"value\": V} or a CEL "
                    + "expression as a string, e.g. \"has(balance) && tier != 'closed'\".");
        }
        for (JsonNode clause : where) {
            JsonNode property = clause.get("property");
            if (property == null || !property.isTextual() || !clause.has("value")) {
                throw new KeyRangerException("Each \"where\" entry needs \"property\" and \"value\": " + clause);
            }
            filters.add(equality(property.asText(), clause.get("value")));
        }
        return filters;
    }

    private static PropertyFilter equality(String property, JsonNode value) {
        if (value.isNull()) {
            return PropertyFilter.isNull(property);
        }
        if (value.isBoolean()) {
            return PropertyFilter.eq(property, value.asBoolean());
        }
        if (value.isIntegralNumber()) {
            return PropertyFilter.eq(property, value.asLong());
        }
        if (value.isNumber()) {
            return PropertyFilter.eq(property, value.asDouble());
        }
        if (value.isTextual()) {
            return PropertyFilter.eq(property, value.asText());
        }
        throw new KeyRangerException("The value of \"where\" on '" + property + "' must be a string, number, boolean "
                + "or null.");
    }

    public String toJson() {
        return json.toString();
    }
}
