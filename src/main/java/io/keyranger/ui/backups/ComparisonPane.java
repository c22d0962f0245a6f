package io.keyranger.ui.backups;

import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyFormat;
import io.keyranger.ui.common.FittedColumns;
import io.keyranger.ui.common.WrappingCell;
import io.keyranger.ui.common.WriteConfirmation;
import java.util.Objects;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The Backups tab's comparison of the selected kind with the live database and its restore: Compare, the mode and
 * Restore…, the options of a restore from the past (until, remove added) or from another database (its sample, its
 * transform, remove what the source does not hold), the comparison's rows and one row side by side.
 */
final class ComparisonPane extends VBox {
    /** Room for a vertical scroll bar beside the side by side's columns. */
    private static final double SIDES_EDGE = 20;

    private final BackupsViewModel model;

    ComparisonPane(BackupsViewModel model) {
        this.model = model;
        build();
    }

    private void build() {
        DiffModel diff = model.diff();
        RestoreModel restoring = model.restoring();
        Button compare = new Button("Compare with live", new FontIcon(Material2AL.COMPARE_ARROWS));
        compare.setId("compareExport");
        compare.disableProperty().bind(model.canCompare().not());
        compare.setOnAction(e -> model.compare());
        ComboBox<RestoreMode> mode = new ComboBox<>(FXCollections.observableArrayList(
                RestoreMode.SKIP_CHANGED, RestoreMode.MISSING_ONLY, RestoreMode.OVERWRITE));
        mode.setId("restoreMode");
        mode.valueProperty().bindBidirectional(restoring.modeProperty());
        mode.setConverter(new StringConverter<>() {
            @Override
            public String toString(RestoreMode m) {
                return m == null ? "" : m.id();
            }

            @Override
            public RestoreMode fromString(String text) {
                return RestoreMode.of(text);
            }
        });
        Button restore = new Button("Restore…", new FontIcon(Material2MZ.RESTORE));
        restore.setId("restoreExport");
        restore.disableProperty().bind(model.canRestore().not());
        restore.setTooltip(new Tooltip("Restores exactly the rows selected in the comparison (Ctrl- or Shift-click to "
                + "select several); with none selected, it asks before restoring the whole kind."));
        restore.setOnAction(e -> model.restore((spec, what) -> WriteConfirmation.confirm(getScene().getWindow(), spec,
                what), this::restoreWholeKind));
        Label summary = new Label();
        summary.setId("diffSummary");
        summary.setWrapText(true);
        summary.setMinHeight(Region.USE_PREF_SIZE);
        summary.textProperty().bind(diff.summaryProperty());
        compare.setMinWidth(Region.USE_PREF_SIZE);
        restore.setMinWidth(Region.USE_PREF_SIZE);
        Label preview = new Label();
        preview.setId("restorePreview");
        preview.setWrapText(true);
        preview.setMinHeight(Region.USE_PREF_SIZE);
        preview.textProperty().bind(restoring.restorePreviewProperty());
        preview.managedProperty().bind(preview.textProperty().isNotEmpty());
        mode.disableProperty().bind(restoring.undoesWindow());
        Button cancel = new Button("Cancel", new FontIcon(Material2AL.CANCEL));
        cancel.setId("cancelCompare");
        cancel.setMinWidth(Region.USE_PREF_SIZE);
        cancel.managedProperty().bind(diff.comparingProperty());
        cancel.visibleProperty().bind(cancel.managedProperty());
        cancel.setOnAction(e -> diff.cancel());
        HBox actions = new HBox(6, compare, cancel, new Label("Restore mode"), mode, restore);
        actions.setAlignment(Pos.CENTER_LEFT);

        TableView<ExportDiff.Example> examples = new TableView<>(diff.examples());
        examples.setId("diffExamples");
        examples.setPlaceholder(new Label("Compare a kind of the export (or of the past) with the live database"));
        // its header on two lines: the column's words are one short word each, and a one-line header took the room
        // the key needed (cut to "Acc…") at the default window's size
        TableColumn<ExportDiff.Example, String> outcome = BackupsView.column("Since\nexport", x -> x.before() == null ? "added"
                : x.now() == null ? "removed" : "changed", 80);
        outcome.textProperty().bind(Bindings.when(model.databaseProperty().isNotNull()).then("Not in\nsource")
                .otherwise(Bindings.when(model.pastProperty().isNull()).then("Since\nexport")
                        .otherwise("Since\nthen")));
        examples.getColumns().add(outcome);
        TableColumn<ExportDiff.Example, String> key = BackupsView.column("Key", x -> KeyFormat.format(x.key()), 170);
        examples.getColumns().add(key);
        TableColumn<ExportDiff.Example, String> what = BackupsView.column("What differs", ExportDiff.Example::what, 380);
        examples.getColumns().add(what);
        // the table shares the tab's width with the side by side: the last column gives way, no header is cut; the
        // key keeps the width of its text (it was cut to "Acc…"), and what differs wraps onto more lines in what is
        // left; each reads whole as its cell's tooltip too
        examples.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        FittedColumns.fitToText(examples);
        FittedColumns.givesWayLast(examples, key);
        FittedColumns.showFullValueAsTooltip(key);
        what.setCellFactory(WrappingCell::new);
        examples.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        examples.getSelectionModel().selectedItemProperty().addListener((obs, old, x) -> {
            if (x != null) {
                diff.selectedProperty().set(x);
            }
        });
        // Restore… takes exactly the rows selected here
        examples.getSelectionModel().getSelectedItems().addListener((ListChangeListener<ExportDiff.Example>) c ->
                diff.chosen().setAll(examples.getSelectionModel().getSelectedItems().filtered(Objects::nonNull)));
        TableView<SideBySide.Row> sides = new TableView<>(diff.rows());
        sides.setId("sideBySide");
        sides.setPlaceholder(new Label("Select an entity"));
        TableColumn<SideBySide.Row, String> property = BackupsView.column("Property", SideBySide.Row::property, 90);
        sides.getColumns().add(property);
        // two lines, as the comparison's first header: the room goes to the comparison's keys
        TableColumn<SideBySide.Row, String> then = BackupsView.column("In the\nexport", SideBySide.Row::exported, 150);
        then.textProperty().bind(Bindings.when(model.databaseProperty().isNotNull()).then("In the\nsource")
                .otherwise(Bindings.when(model.pastProperty().isNull()).then("In the\nexport")
                        .otherwise("Then")));
        sides.getColumns().add(then);
        sides.getColumns().add(BackupsView.column("Live", SideBySide.Row::live, 150));
        sides.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        // never narrower than its headers (and a scroll bar): the comparison beside it takes the rest, not its columns
        sides.minWidthProperty().bind(Bindings.createDoubleBinding(() -> sides.getColumns().stream()
                .mapToDouble(TableColumn::getMinWidth).sum() + SIDES_EDGE, sides.getColumns().stream()
                .map(TableColumn::minWidthProperty).toArray(Observable[]::new)));
        sides.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(SideBySide.Row item, boolean empty) {
                super.updateItem(item, empty);
                setStyle(!empty && item != null && item.differs() ? "-fx-font-weight: bold;" : "");
            }
        });
        SplitPane tables = new SplitPane(examples, sides);
        tables.setDividerPositions(0.6); // the comparison's key and what differs need more than the side by side
        VBox.setVgrow(tables, Priority.ALWAYS);
        setSpacing(6);
        getChildren().setAll(actions, undoWindow(mode), copyOptions(mode), summary, preview, tables);
        setPadding(new Insets(6, 8, 6, 8));
    }

    /**
     * From another database only: the percentage of its keys copied (by a hash of each key's path), a transform spec
     * applied to each entity on the way (masking), whether each brings its ancestors, and whether what the source does
     * not hold is removed here (with overwrite, so that the kind ends equal to the source's).
     */
    private HBox copyOptions(ComboBox<RestoreMode> mode) {
        RestoreModel restoring = model.restoring();
        TextField sample = new TextField();
        sample.setId("restoreSample");
        sample.setPromptText("100");
        sample.setPrefColumnCount(4);
        sample.setMinWidth(Region.USE_PREF_SIZE);
        sample.textProperty().bindBidirectional(restoring.sampleProperty());
        TextField transform = new TextField();
        transform.setId("restoreTransform");
        transform.setPromptText("a transform spec, e.g. mask.json");
        transform.setPrefColumnCount(16);
        transform.textProperty().bindBidirectional(restoring.transformProperty());
        HBox.setHgrow(transform, Priority.ALWAYS);
        CheckBox removeMissing = new CheckBox("Also remove what the source does not hold");
        removeMissing.setId("restoreRemoveMissing");
        removeMissing.setMinWidth(Region.USE_PREF_SIZE);
        removeMissing.selectedProperty().bindBidirectional(restoring.removeAddedProperty());
        removeMissing.disableProperty().bind(mode.valueProperty().isNotEqualTo(RestoreMode.OVERWRITE));
        CheckBox ancestors = new CheckBox("With ancestors");
        ancestors.setId("restoreWithAncestors");
        ancestors.setMinWidth(Region.USE_PREF_SIZE);
        ancestors.setTooltip(new Tooltip("Bring each entity's ancestors that the source holds, so that a sample or a "
                + "selection copies whole entity groups."));
        ancestors.selectedProperty().bindBidirectional(restoring.withAncestorsProperty());
        Label percent = new Label("Sample %");
        percent.setMinWidth(Region.USE_PREF_SIZE);
        Label shaped = new Label("Transform");
        shaped.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(6, percent, sample, shaped, transform, ancestors, removeMissing);
        row.setId("copyOptions");
        row.setAlignment(Pos.CENTER_LEFT);
        row.managedProperty().bind(model.databaseProperty().isNotNull());
        row.visibleProperty().bind(row.managedProperty());
        return row;
    }

    /**
     * From the past only: until, the end of a window of damage to undo (each entity then goes back as it was at the
     * moment on show if it is still as it was at until, and is left alone if written again after), and whether the
     * entities added in the window are removed (without until: those added since, with overwrite).
     */
    private HBox undoWindow(ComboBox<RestoreMode> mode) {
        RestoreModel restoring = model.restoring();
        TextField until = new TextField();
        until.setId("restoreUntil");
        until.setPromptText("-5m or 2026-11-27T10:45:00Z");
        until.setPrefColumnCount(17);
        until.setMinWidth(Region.USE_PREF_SIZE);
        until.textProperty().bindBidirectional(restoring.untilProperty());
        Label label = new Label("Undo the window until");
        label.setMinWidth(Region.USE_PREF_SIZE);
        CheckBox removeAdded = new CheckBox("Also remove entities added in it");
        removeAdded.setId("restoreRemoveAdded");
        removeAdded.setMinWidth(Region.USE_PREF_SIZE);
        removeAdded.selectedProperty().bindBidirectional(restoring.removeAddedProperty());
        removeAdded.disableProperty().bind(restoring.undoesWindow().not()
                .and(mode.valueProperty().isNotEqualTo(RestoreMode.OVERWRITE)));
        HBox row = new HBox(6, label, until, removeAdded);
        row.setAlignment(Pos.CENTER_LEFT);
        row.managedProperty().bind(model.pastProperty().isNotNull());
        row.visibleProperty().bind(row.managedProperty());
        return row;
    }

    /** Asks before a restore with no row of the comparison selected: it takes the whole kind. */
    private boolean restoreWholeKind(String question) {
        ButtonType whole = new ButtonType("Restore the whole kind", ButtonBar.ButtonData.OK_DONE);
        Alert ask = new Alert(Alert.AlertType.CONFIRMATION, question, whole, ButtonType.CANCEL);
        ask.initOwner(getScene().getWindow());
        ask.setHeaderText("Restore the whole kind?");
        ask.getDialogPane().setId("restoreWholeKind");
        return ask.showAndWait().orElse(ButtonType.CANCEL) == whole;
    }
}
