package io.keyranger;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** The name a typo most likely meant: what every "Did you mean …?" of a kind, property or command offers. */
public final class NearestName {
    private NearestName() {
    }

    /** The name of {@code names} that {@code name} most likely meant: within two edits, ignoring case; or none. */
    public static Optional<String> of(String name, Collection<String> names) {
        return names.stream().filter(n -> distance(n.toLowerCase(), name.toLowerCase()) <= 2)
                .min(Comparator.comparingInt(n -> distance(n, name)));
    }

    /** The edit distance between two names. */
    static int distance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1)
                        ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
