package io.keyranger.job;

import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The few skipped entities a range keeps as examples, stored with its checkpoint in the same commit (so they are
 * exact, never from a page that was rolled back): at most {@value #PER_CATEGORY} per reason and
 * {@value #PER_RANGE} in all, each as "category TAB key TAB detail".
 */
public final class ProblemExamples {
    public static final int PER_CATEGORY = 3;
    public static final int PER_RANGE = 12;

    private ProblemExamples() {
    }

    public static List<String> add(List<String> kept, List<MapResult.Problem> problems) {
        if (problems.isEmpty() || kept.size() >= PER_RANGE) {
            return kept;
        }
        List<String> out = new ArrayList<>(kept);
        for (MapResult.Problem p : problems) {
            if (out.size() >= PER_RANGE) {
                break;
            }
            long same = out.stream().filter(e -> category(e).equals(p.category())).count();
            if (same < PER_CATEGORY) {
                out.add(p.category().replace('\t', ' ') + "\t" + KeyFormat.format(p.key()) + "\t"
                        + p.reason().replace('\t', ' '));
            }
        }
        return List.copyOf(out);
    }

    public static String category(String entry) {
        return entry.substring(0, entry.indexOf('\t'));
    }

    /** "KEY: detail". */
    public static String describe(String entry) {
        String[] parts = entry.split("\t", 3);
        return parts[1] + ": " + parts[2];
    }
}
