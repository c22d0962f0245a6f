package io.keyranger.job;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Node ids are "r3" for the fourth planned range and "r3.0"/"r3.1" for its children. Sorted numerically segment by
 * segment with parents first, they list the tree in key order: a node's own pages come before its left child's,
 * and those before its right child's.
 */
public final class NodeIds {
    private static final Pattern RANGE_OF_KIND = Pattern.compile(
            "(.*)/r\\d+(\\.\\d+)*");

    private NodeIds() {
    }

    public static int compare(String a, String b) {
        // in a job over several kinds a kind's root is its name, and its ranges are "Kind/r3.1": by kind, root first
        String ka = kindOf(a);
        String kb = kindOf(b);
        if (ka != null || kb != null) {
            int c = Comparator.nullsFirst(String::compareTo).compare(ka, kb);
            if (c != 0) {
                return c;
            }
            String ra = ka == null ? a : a.substring(Math.min(a.length(), ka.length() + 1));
            String rb = kb == null ? b : b.substring(Math.min(b.length(), kb.length() + 1));
            if (ra.isEmpty() || rb.isEmpty()) {
                return Boolean.compare(!ra.isEmpty(), !rb.isEmpty());
            }
            return compare(ra, rb);
        }
        String[] pa = a.substring(1).split("\\.");
        String[] pb = b.substring(1).split("\\.");
        for (int i = 0; i < Math.min(pa.length, pb.length); i++) {
            int c = Integer.compare(Integer.parseInt(pa[i]), Integer.parseInt(pb[i]));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pa.length, pb.length);
    }

    /** The kind of a node of a job over several kinds ("Kind" or "Kind/r3.1"), or null for a one-kind job's node. */
    private static String kindOf(String id) {
        if (id.matches("r\\d+(\\.\\d+)*")) {
            return null;
        }
        Matcher range = RANGE_OF_KIND.matcher(id);
        return range.matches() ? range.group(1) : id;
    }
}
