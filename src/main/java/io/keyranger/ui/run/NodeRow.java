package io.keyranger.ui.run;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.keys.KeyFormat;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** A node of the live split tree as the UI shows it; updated on the FX thread from coalesced snapshots. */
public final class NodeRow {
    private final String id;
    private final ReadOnlyObjectWrapper<NodeSnapshot> snapshot = new ReadOnlyObjectWrapper<>();
    private final ObservableList<NodeRow> children = FXCollections.observableArrayList();

    NodeRow(NodeSnapshot first) {
        this.id = first.id();
        snapshot.set(first);
    }

    public String id() {
        return id;
    }

    public NodeSnapshot snapshot() {
        return snapshot.get();
    }

    public ReadOnlyObjectProperty<NodeSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    void update(NodeSnapshot next) {
        snapshot.set(next);
    }

    public ObservableList<NodeRow> children() {
        return children;
    }

    public NodeStatus status() {
        return snapshot.get().status();
    }

    /** "[Account:12, Account:"m")" with open ends shown as ∞. */
    public String rangeText() {
        NodeSnapshot s = snapshot.get();
        return (s.start() == null ? "(−∞" : (s.startInclusive() ? "[" : "(") + KeyFormat.format(s.start())) + ", "
                + (s.end() == null ? "+∞)" : KeyFormat.format(s.end()) + ")");
    }
}
