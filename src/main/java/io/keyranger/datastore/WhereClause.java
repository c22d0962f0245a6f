package io.keyranger.datastore;

import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import java.util.List;

/**
 * Parses equality filters written as {@code property=value}. The value's type is inferred: true/false, a whole
 * number, a decimal number, null, or else a string; quotes ('…' or "…") force a string.
 */
public final class WhereClause {
    private WhereClause() {
    }

    public static List<PropertyFilter> parseAll(List<String> clauses) {
        return clauses == null ? List.of() : clauses.stream().map(WhereClause::parse).toList();
    }

    /**
     * A parsed clause.
     *
     * @param property the property
     * @param value    a String, Long, Double, Boolean, or null
     */
    public record Clause(String property, Object value) {
        public PropertyFilter toFilter() {
            if (value == null) {
                return PropertyFilter.isNull(property);
            }
            if (value instanceof Boolean b) {
                return PropertyFilter.eq(property, b);
            }
            if (value instanceof Long l) {
                return PropertyFilter.eq(property, l);
            }
            if (value instanceof Double d) {
                return PropertyFilter.eq(property, d);
            }
            return PropertyFilter.eq(property, value.toString());
        }
    }

    public static PropertyFilter parse(String clause) {
        return clause(clause).toFilter();
    }

    public static Clause clause(String clause) {
        int eq = clause.indexOf('=');
        if (eq <= 0) {
            throw new KeyRangerException("'" + clause + "' is not a filter: write property=value, e.g. tier=pro.");
        }
        String property = clause.substring(0, eq).trim();
        String value = clause.substring(eq + 1).trim();
        if (property.isEmpty()) {
            throw new KeyRangerException("'" + clause + "' names no property.");
        }
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            return new Clause(property, value.substring(1, value.length() - 1));
        }
        if (value.equals("true") || value.equals("false")) {
            return new Clause(property, Boolean.parseBoolean(value));
        }
        if (value.equals("null")) {
            return new Clause(property, null);
        }
        if (value.matches("-?\\d{1,18}")) {
            return new Clause(property, Long.parseLong(value));
        }
        if (value.matches("-?\\d+\\.\\d+([eE][-+]?\\d+)?")) {
            return new Clause(property, Double.parseDouble(value));
        }
        return new Clause(property, value);
    }
}
