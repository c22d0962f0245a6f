package io.keyranger.ui.run;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.ui.common.HoverTooltip;
import java.util.function.Function;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import org.kordamp.ikonli.javafx.FontIcon;

/** The live split tree: one row per range, children under the range they split from, updated in place. */
final class RangeTreeTable extends TreeTableView<NodeRow> {

    /** While the job is paused its running ranges say so. */
    private final ObservableBooleanValue paused;

    RangeTreeTable(ObservableList<NodeRow> roots, ObservableBooleanValue paused) {
        super(new TreeItem<>());
        this.paused = paused;
        paused.addListener((obs, was, now) -> refresh());
        bindChildren(getRoot(), roots);
        setId("rangeTree");
        getStyleClass().add("scrolls-sideways"); // its last columns (retries, keys, last error) are a scroll away
        setShowRoot(false);
        setPlaceholder(new Label("No job yet"));
        // every row is one line: a fixed height (the theme's 2.8em at 14 px) spares the table measuring each new row,
        // which was most of the FX thread's work in the pulse that shows a job's first rows
        setFixedCellSize(40);
        TreeTableColumn<NodeRow, NodeSnapshot> id = new TreeTableColumn<>("Range");
        id.setCellValueFactory(c -> c.getValue().getValue().snapshotProperty());
        id.setCellFactory(column -> new TreeTableCell<>() {
            private final FontIcon icon = new FontIcon(StatusIcons.ikon(NodeStatus.QUEUED));
            private NodeStatus shown;

            @Override
            protected void updateItem(NodeSnapshot node, boolean empty) {
                super.updateItem(node, empty);
                if (empty || node == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                if (node.status() != shown) {
                    StatusIcons.show(icon, node.status());
                    shown = node.status();
                }
                setText(node.id());
                setGraphic(icon);
            }
        });
        id.setPrefWidth(150);
        getColumns().add(id);
        // widths that show each header whole at the theme's font; the table scrolls sideways rather than cut them
        getColumns().add(column("Status", 100, s -> s.status() == NodeStatus.RUNNING && paused.get() ? "paused"
                : s.status().name().toLowerCase()));
        getColumns().add(column("Depth", 72, s -> String.valueOf(s.depth())));
        getColumns().add(column("Entities", 96, s -> String.format("%,d", s.entities())));
        getColumns().add(column("Subtree", 96, s -> String.format("%,d", s.subtreeEntities())));
        getColumns().add(column("Pages", 76, s -> String.valueOf(s.pages())));
        getColumns().add(column("Retries", 84, s -> String.valueOf(s.retries())));
        TreeTableColumn<NodeRow, String> range = new TreeTableColumn<>("Keys");
        range.setCellValueFactory(c -> c.getValue().getValue().snapshotProperty().map(s -> c.getValue().getValue()
                .rangeText()));
        var plain = range.getCellFactory();
        range.setCellFactory(column -> HoverTooltip.ofText(plain.call(column))); // the whole range, however narrow
        range.setPrefWidth(320);
        getColumns().add(range);
        getColumns().add(column("Last error", 200, s -> s.lastError() == null ? "" : s.lastError()));
    }


    private static TreeTableColumn<NodeRow, String> column(String title, double width,
                                                          Function<NodeSnapshot, String> text) {
        TreeTableColumn<NodeRow, String> column = new TreeTableColumn<>(title);
        column.setCellValueFactory(c -> map(c.getValue().getValue().snapshotProperty(), text));
        column.setPrefWidth(width);
        return column;
    }

    private static ObservableValue<String> map(ObservableValue<NodeSnapshot> snapshot, Function<NodeSnapshot, String> f) {
        return snapshot.map(f);
    }

    /** Selects a row's item (expanding its ancestors) and scrolls to it: a click on the key-space map. */
    void select(NodeRow row) {
        TreeItem<NodeRow> item = find(getRoot(), row);
        if (item == null) {
            return;
        }
        for (TreeItem<NodeRow> up = item.getParent(); up != null; up = up.getParent()) {
            up.setExpanded(true);
        }
        getSelectionModel().select(item);
        int index = getRow(item);
        if (index >= 0) {
            scrollTo(index);
        }
    }

    private static TreeItem<NodeRow> find(TreeItem<NodeRow> item, NodeRow row) {
        if (item.getValue() == row) {
            return item;
        }
        for (TreeItem<NodeRow> child : item.getChildren()) {
            TreeItem<NodeRow> found = find(child, row);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Mirrors a row list into tree items; rows are only ever inserted, or all cleared. */
    private static void bindChildren(TreeItem<NodeRow> item, ObservableList<NodeRow> rows) {
        rows.forEach(row -> item.getChildren().add(treeItem(row)));
        rows.addListener((ListChangeListener<NodeRow>) change -> {
            while (change.next()) {
                if (change.wasRemoved() && change.getList().isEmpty()) {
                    item.getChildren().clear();
                }
                if (change.wasAdded()) {
                    item.getChildren().addAll(change.getFrom(),
                            change.getAddedSubList().stream().map(RangeTreeTable::treeItem).toList());
                }
            }
        });
    }

    private static TreeItem<NodeRow> treeItem(NodeRow row) {
        TreeItem<NodeRow> item = new TreeItem<>(row);
        item.setExpanded(row.snapshot().depth() < 2);
        bindChildren(item, row.children());
        return item;
    }
}
