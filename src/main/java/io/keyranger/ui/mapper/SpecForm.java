package io.keyranger.ui.mapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.datastore.WhereClause;
import io.keyranger.mapper.Param;
import io.keyranger.mapper.Template;
import io.keyranger.ui.common.Specs;
import java.util.Map;

/**
 * Between the Mapper form's text fields and a spec: each field typed by its parameter's type (a value by the chosen
 * value type), and the where line ("tier=pro, active=true") typed like the CLI's {@code --where}. Text that does not
 * parse is kept as text, so the template's validation names the field.
 */
final class SpecForm {
    private static final ObjectMapper JSON =
            new ObjectMapper();

    private SpecForm() {
    }

    /** The spec the form's fields make. */
    static ObjectNode toJson(Template t, Map<String, String> values, String where) {
        ObjectNode spec = Specs.template(t.name());
        String valueType = values.get("type");
        for (Param param : t.params()) {
            String text = values.getOrDefault(param.name(), "").trim();
            if (text.isEmpty()) {
                continue;
            }
            switch (param.type()) {
                case INTEGER, NUMBER -> putNumber(spec, param.name(), text);
                case BOOLEAN -> spec.put(param.name(), Boolean.parseBoolean(text));
                case VALUE -> putValue(spec, param.name(), text, valueType);
                case EXPRESSIONS -> putJson(spec, param.name(), text);
                case PROPERTIES -> putNames(spec, param.name(), text);
                default -> spec.put(param.name(), text);
            }
        }
        if (isExpression(where)) {
            spec.put("where", where.trim());
            return spec;
        }
        ArrayNode clauses = whereClauses(spec, where);
        if (clauses.isEmpty()) {
            spec.remove("where");
        }
        return spec;
    }

    /**
     * Whether the where line is a CEL expression rather than "property=value" clauses: it uses an operator the
     * clauses never do (==, !=, <, >, &&, ||, !, a call), or no '=' at all.
     */
    static boolean isExpression(String where) {
        String text = where.trim();
        return !text.isEmpty() && (!text.contains("=") || text.matches("(?s).*(==|!=|<|>|&&|\\|\\||!|\\().*"));
    }

    /** JSON text as JSON; text that does not parse stays text, so validation says what is wrong beside the field. */
    private static void putJson(ObjectNode spec, String name, String text) {
        try {
            spec.set(name, JSON.readTree(text));
        } catch (JsonProcessingException e) {
            spec.put(name, text);
        }
    }

    /** A JSON list of names, or names separated by commas. */
    private static void putNames(ObjectNode spec, String name, String text) {
        if (text.startsWith("[")) {
            putJson(spec, name, text);
            return;
        }
        ArrayNode names = spec.putArray(name);
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                names.add(part.trim());
            }
        }
    }

    /** A spec's where as the form's one-line text: the clauses, or the expression. */
    static String whereText(JsonNode clauses) {
        if (clauses != null && clauses.isTextual()) {
            return clauses.asText();
        }
        StringBuilder text = new StringBuilder();
        if (clauses != null) {
            for (JsonNode clause : clauses) {
                JsonNode value = clause.get("value");
                text.append(text.length() == 0 ? "" : ", ").append(clause.path("property").asText()).append('=')
                        .append(value.isTextual() ? "\"" + value.asText() + "\"" : value.toString());
            }
        }
        return text.toString();
    }

    private static void putNumber(ObjectNode spec, String name, String text) {
        try {
            if (text.matches("-?\\d+")) {
                spec.put(name, Long.parseLong(text));
            } else {
                spec.put(name, Double.parseDouble(text));
            }
        } catch (NumberFormatException e) {
            spec.put(name, text);
        }
    }

    private static void putValue(ObjectNode spec, String name, String text, String type) {
        switch (type == null ? "string" : type) {
            case "integer", "double" -> putNumber(spec, name, text);
            case "boolean" -> {
                if (text.equals("true") || text.equals("false")) {
                    spec.put(name, Boolean.parseBoolean(text));
                } else {
                    spec.put(name, text);
                }
            }
            case "null" -> spec.putNull(name);
            default -> spec.put(name, text);
        }
    }

    private static ArrayNode whereClauses(ObjectNode spec, String where) {
        ArrayNode clauses = spec.putArray("where");
        for (String part : where.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            WhereClause.Clause parsed = WhereClause.clause(part.trim());
            ObjectNode clause = clauses.addObject().put("property", parsed.property());
            Object value = parsed.value();
            if (value == null) {
                clause.putNull("value");
            } else if (value instanceof Long l) {
                clause.put("value", l);
            } else if (value instanceof Double d) {
                clause.put("value", d);
            } else if (value instanceof Boolean b) {
                clause.put("value", b);
            } else {
                clause.put("value", value.toString());
            }
        }
        return clauses;
    }
}
