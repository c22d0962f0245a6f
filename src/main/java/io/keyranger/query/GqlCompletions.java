package io.keyranger.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the query box offers for the word being typed: kinds after FROM, else properties and GQL's keywords. */
public final class GqlCompletions {
    private static final List<String> KEYWORDS = List.of("SELECT", "FROM", "WHERE", "AND", "ORDER BY", "ASC", "DESC",
            "LIMIT", "OFFSET", "IN", "NOT IN", "IS NULL", "HAS ANCESTOR", "KEY(", "DATETIME(", "__key__", "true",
            "false", "null");

    private GqlCompletions() {
    }

    /**
     * Completions of the word being typed at the end of {@code text}: whole texts, each the text with that word
     * completed, so a chosen one replaces the box's text; at most 12.
     */
    public static List<String> of(String text, List<String> kinds, List<String> properties) {
        if (text == null || text.isEmpty() || Character.isWhitespace(text.charAt(text.length() - 1))) {
            return List.of();
        }
        int start = text.length();
        while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || "_$.".indexOf(text.charAt(start - 1)) >= 0)) {
            start--;
        }
        String word = text.substring(start);
        if (word.isEmpty()) {
            return List.of();
        }
        String before = text.substring(0, start).stripTrailing();
        boolean afterFrom = before.toUpperCase(Locale.ROOT).endsWith("FROM");
        List<String> candidates = new ArrayList<>(afterFrom ? kinds : properties);
        if (!afterFrom) {
            candidates.addAll(KEYWORDS);
        }
        String prefix = text.substring(0, start);
        String lower = word.toLowerCase(Locale.ROOT);
        return candidates.stream().filter(c -> c.toLowerCase(Locale.ROOT).startsWith(lower)
                && !c.equals(word)).map(c -> prefix + c).limit(12).toList();
    }
}
