package io.keyranger.ui.run;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
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
     * @param own      whether this band is the part of a split range that the range committed itself before it split
     *                 (drawn under it, beside its halves, so the key space has no holes)
     */
    record Band(NodeRow row, int depth, double from, double to, NodeStatus status, double progress, boolean own) {
        Band(NodeRow row, int depth, double from, double to, NodeStatus status, double progress) {
            this(row, depth, from, to, status, progress, false);
        }

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
        if (x > from) {
            bands.add(new Band(row, depth + 1, from, x, NodeStatus.DONE, 0, true));
        }
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

    /**
     * What an unfinished range at each depth is assumed to hold: the mean size of the finished subtrees there; before
     * any has finished, the most any range there has committed so far (so ranges still queued keep their width while
     * the first ones run).
     */
    private static final class Typical {
        private final List<double[]> sums = new ArrayList<>(); // per depth: {sum, count, most committed unfinished}

        void collect(NodeRow row, int depth) {
            while (sums.size() <= depth) {
                sums.add(new double[3]);
            }
            if (finished(row)) {
                sums.get(depth)[0] += row.snapshot().subtreeEntities();
                sums.get(depth)[1]++;
            } else if (row.children().isEmpty()) {
                sums.get(depth)[2] = Math.max(sums.get(depth)[2], row.snapshot().entities());
            }
            row.children().forEach(c -> collect(c, depth + 1));
        }

        double at(int depth) {
            if (depth < sums.size() && sums.get(depth)[1] > 0) {
                return Math.max(1, sums.get(depth)[0] / sums.get(depth)[1]);
            }
            if (depth < sums.size() && sums.get(depth)[2] > 0 && depth == 1) {
                return sums.get(depth)[2];
            }
            if (depth > 1) {
                return at(depth - 1) / 2;
            }
            return 1;
        }
    }
}
