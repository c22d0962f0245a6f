package io.keyranger.datastore;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A property of a kind as the {@code __property__} metadata reports it.
 *
 * @param name  the property name
 * @param types readable value types, e.g. "integer" or "string"; a property can have several
 */
public record PropertyInfo(String name, List<String> types) {
    public PropertyInfo {
        types = List.copyOf(types);
    }

    /**
     * The types a {@code property_representation} stands for, as users name them: for the two representations that
     * hold two types each, those of them {@code seen} in the data (both, ambiguous, when neither was seen).
     */
    static List<String> readableTypes(String representation, Set<String> seen) {
        List<String> pair = switch (representation) {
            case "INT64" -> List.of("integer", "timestamp");
            case "STRING" -> List.of("string", "blob");
            default -> List.of();
        };
        if (pair.isEmpty()) {
            return List.of(readableType(representation));
        }
        List<String> found = pair.stream().filter(seen::contains).toList();
        return found.isEmpty() ? List.of(readableType(representation)) : found;
    }

    /** Maps a {@code property_representation} to the name users know. */
    static String readableType(String representation) {
        return switch (representation) {
            case "INT64" -> "integer/timestamp";
            case "DOUBLE" -> "double";
            case "BOOLEAN" -> "boolean";
            case "STRING" -> "string/blob";
            case "POINT" -> "geo point";
            case "REFERENCE" -> "key";
            case "NULL" -> "null";
            default -> representation.toLowerCase(Locale.ROOT);
        };
    }
}
