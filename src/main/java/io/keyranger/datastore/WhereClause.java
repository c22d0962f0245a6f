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

    public static PropertyFilter parse(String clause) {
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
            return PropertyFilter.eq(property, value.substring(1, value.length() - 1));
        }
        if (value.equals("true") || value.equals("false")) {
            return PropertyFilter.eq(property, Boolean.parseBoolean(value));
        }
        if (value.equals("null")) {
            return PropertyFilter.isNull(property);
        }
        if (value.matches("-?\\d{1,18}")) {
            return PropertyFilter.eq(property, Long.parseLong(value));
        }
        if (value.matches("-?\\d+\\.\\d+([eE][-+]?\\d+)?")) {
            return PropertyFilter.eq(property, Double.parseDouble(value));
        }
        return PropertyFilter.eq(property, value);
    }
}
