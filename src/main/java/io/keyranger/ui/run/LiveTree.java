package io.keyranger.ui.run;

import io.keyranger.job.NodeIds;
import io.keyranger.job.NodeSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The rows of the Run tab's split tree: one per range node, siblings in id order (r2 before r10, r3.0 before r3.1)
 * whatever order their events came in. Changed on the FX thread only; rows are only ever added, updated, or all
 * cleared, which is what the view's tree items mirror.
 */
final class LiveTree {
    private final ObservableList<NodeRow> roots = FXCollections.observableArrayList();
    private final Map<String, NodeRow> rows = new HashMap<>();
    private final RowBacklog backlog = new RowBacklog(40, 2);

    ObservableList<NodeRow> roots() {
        return roots;
    }

    /** One UI tick of a running job: new rows are paced while the tree is small, all go in once the job ended. */
    void tick(List<NodeSnapshot> nodes, boolean jobEnded) {
        apply(backlog.take(nodes, rows.size(), rows::containsKey, jobEnded));
    }

    /** Adds or updates rows at once, parents before children (a stored job's whole tree, say). */
    void apply(List<NodeSnapshot> nodes) {
        for (NodeSnapshot node : nodes) {
            NodeRow row = rows.get(node.id());
            if (row != null) {
                row.update(node);
                continue;
            }
            row = new NodeRow(node);
            rows.put(node.id(), row);
            NodeRow parent = node.parentId() == null ? null : rows.get(node.parentId());
            insertSorted(parent == null ? roots : parent.children(), row);
        }
    }

    private final ReadOnlyIntegerWrapper version = new ReadOnlyIntegerWrapper();

    /** Tells the tree's watchers (the key-space map) that its rows changed. */
    void changed() {
        version.set(version.get() + 1);
    }

    /** Bumped by {@link #changed}. */
    ReadOnlyIntegerProperty versionProperty() {
        return version.getReadOnlyProperty();
    }

    void clear() {
        rows.clear();
        backlog.clear();
        roots.clear();
    }

    private static void insertSorted(ObservableList<NodeRow> siblings, NodeRow row) {
        int at = 0;
        while (at < siblings.size() && compareIds(siblings.get(at).id(), row.id()) < 0) {
            at++;
        }
        siblings.add(at, row);
    }

    static int compareIds(String a, String b) {
        return NodeIds.compare(a, b);
    }
}
