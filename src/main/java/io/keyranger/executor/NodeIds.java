package io.keyranger.executor;

/**
 * Node ids are "r3" for the fourth planned range and "r3.0"/"r3.1" for its children. Sorted numerically segment by
 * segment with parents first, they list the tree in key order: a node's own pages come before its left child's,
 * and those before its right child's.
 */
public final class NodeIds {
    private NodeIds() {
    }

    public static int compare(String a, String b) {
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
}
