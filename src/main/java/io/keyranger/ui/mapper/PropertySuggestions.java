package io.keyranger.ui.mapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The property names a property field offers for what was typed: names that start with it first, then names that
 * contain it, ignoring case; nothing when it already names one exactly (a new name is welcome too: the field takes
 * any text).
 */
final class PropertySuggestions {
    private PropertySuggestions() {
    }

    /** The suggestions among {@code names} for {@code typed}. */
    static List<String> of(List<String> names, String typed) {
        String stripped = typed == null ? "" : typed.strip();
        String text = stripped.toLowerCase(Locale.ROOT);
        if (names.stream().anyMatch(name -> name.equalsIgnoreCase(stripped))) {
            return List.of();
        }
        List<String> starting = new ArrayList<>();
        List<String> containing = new ArrayList<>();
        for (String name : names) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith(text)) {
                starting.add(name);
            } else if (lower.contains(text)) {
                containing.add(name);
            }
        }
        starting.addAll(containing);
        return List.copyOf(starting);
    }
}
