package io.keyranger.ui.run;

import io.keyranger.executor.NodeSnapshot;
import io.keyranger.executor.NodeStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The key-space map's geometry, without drawing: the job is the top band; each planned range a band below it; each
 * split draws its node's own pages and its two halves below it, in key order. A band's width is its share of the
 * job's entities: what it committed once it is done, and an estimate while it runs or waits (planned ranges are cut
 * at equal counts of scatter samples, so they start equal; an unfinished range counts as the typical finished range
 * at its depth until it has committed more). Positions are fractions of the job's width, 0 to 1.
 */
final class KeySpaceLayout {
    private KeySpaceLayout() {
    }

    /**
     * One band.
     *
     * @param row      the node, or null for the job's band
     * @param depth    0 for the job, 1 for planned ranges, and one more per split
     * @param from     left edge, a fraction of the job's width
     * @param to       right edge
     * @param status   the node's status (the job's band: DONE when every range is, RUNNING otherwise)
     * @param progress for a running range, how far through its estimated entities it is (0 to 1)
     */
    record Band(NodeRow row, int depth, double from, double to, NodeStatus status, double progress) {
        double width() {
            return to - from;
        }
    }

    static List<Band> layout(List<NodeRow> roots) {
        List<Band> bands = new ArrayList<>();
        if (roots.isEmpty()) {
            return bands;
        }
        Typical typical = new Typical();
        roots.forEach(r -> typical.collect(r, 1));
        double total = roots.stream().mapToDouble(r -> weight(r, 1, typical)).sum();
        boolean allDone = roots.stream().allMatch(KeySpaceLayout::finished);
        bands.add(new Band(null, 0, 0, 1, allDone ? NodeStatus.DONE : NodeStatus.RUNNING, 0));
        double x = 0;
        for (NodeRow root : roots) {
            double w = total <= 0 ? 1.0 / roots.size() : weight(root, 1, typical) / total;
            place(root, 1, x, x + w, typical, bands);
            x += w;
        }
        return bands;
    }

    private static void place(NodeRow row, int depth, double from, double to, Typical typical, List<Band> bands) {
        NodeSnapshot s = row.snapshot();
        double weight = weight(row, depth, typical);
        double progress = s.status() == NodeStatus.RUNNING && weight > 0 ? Math.min(1, s.entities() / weight) : 0;
        bands.add(new Band(row, depth, from, to, s.status(), progress));
        if (row.children().isEmpty() || weight <= 0) {
            return;
        }
        // the node's own pages come first in key order, then its left half, then its right half
        double x = from + (to - from) * (s.entities() / weight);
        for (NodeRow child : row.children()) {
            double w = (to - from) * weight(child, depth + 1, typical) / weight;
            place(child, depth + 1, x, Math.min(to, x + w), typical, bands);
            x += w;
        }
    }

    /** Entities the node and its descendants hold, committed or (for unfinished leaves) estimated. */
    private static double weight(NodeRow row, int depth, Typical typical) {
        NodeSnapshot s = row.snapshot();
        double children = 0;
        for (NodeRow child : row.children()) {
            children += weight(child, depth + 1, typical);
        }
        if (row.children().isEmpty() && !s.status().isFinal()) {
            return Math.max(s.entities(), typical.at(depth));
        }
        return s.entities() + children;
    }

    static boolean finished(NodeRow row) {
        return row.status().isFinal() && row.children().stream().allMatch(KeySpaceLayout::finished);
    }

    /** The mean size of finished subtrees at each depth: what an unfinished range there is assumed to hold. */
    private static final class Typical {
        private final List<double[]> sums = new ArrayList<>(); // per depth: {sum, count}

        void collect(NodeRow row, int depth) {
            if (finished(row)) {
                while (sums.size() <= depth) {
                    sums.add(new double[2]);
                }
                sums.get(depth)[0] += row.snapshot().subtreeEntities();
                sums.get(depth)[1]++;
            }
            row.children().forEach(c -> collect(c, depth + 1));
        }

        double at(int depth) {
            if (depth < sums.size() && sums.get(depth)[1] > 0) {
                return Math.max(1, sums.get(depth)[0] / sums.get(depth)[1]);
            }
            if (depth > 1) {
                return at(depth - 1) / 2;
            }
            return 1;
        }
    }
}
