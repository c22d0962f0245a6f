package io.keyranger.ui.run;

import io.keyranger.job.NodeSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Paces new rows into the live tree. Every new visible row makes the tree build a row of cells, and the first rows of
 * a job are the dearest (cold styles and skins): all of them in one tick made a 200-400 ms stall. So while the tree is
 * still small, only a few new rows go in per tick; updates to rows already shown, and everything once the tree has
 * filled its first screen, go in at once. Nothing is dropped: a held row keeps its latest snapshot, and parents always
 * go in before their children.
 */
final class RowBacklog {
    private final int smallTree;
    private final int perTick;
    private final Map<String, NodeSnapshot> held = new LinkedHashMap<>();

    /**
     * @param smallTree below this many rows, new rows are paced
     * @param perTick   how many new rows a tick may add while paced
     */
    RowBacklog(int smallTree, int perTick) {
        this.smallTree = smallTree;
        this.perTick = perTick;
    }

    /**
     * The snapshots to apply now, parents before children.
     *
     * @param incoming this tick's snapshots, parents before children
     * @param shown    the number of rows the tree has now
     * @param isShown  whether a node id has a row already
     * @param all      true to release everything held (the job ended)
     */
    List<NodeSnapshot> take(List<NodeSnapshot> incoming, int shown, Predicate<String> isShown, boolean all) {
        List<NodeSnapshot> now = new ArrayList<>();
        for (NodeSnapshot node : incoming) {
            if (isShown.test(node.id()) && !held.containsKey(node.id())) {
                now.add(node);
            } else {
                held.put(node.id(), node);
            }
        }
        int budget = all || shown >= smallTree ? Integer.MAX_VALUE : perTick;
        Set<String> added = new HashSet<>();
        for (Iterator<NodeSnapshot> it = held.values().iterator(); it.hasNext() && added.size() < budget; ) {
            NodeSnapshot node = it.next();
            String parent = node.parentId();
            if (parent == null || isShown.test(parent) || added.contains(parent) || !held.containsKey(parent)) {
                now.add(node);
                added.add(node.id());
                it.remove();
            }
        }
        return now;
    }

    /** Rows waiting for a tick. */
    int size() {
        return held.size();
    }

    void clear() {
        held.clear();
    }
}
