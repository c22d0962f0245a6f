package io.keyranger.ui.backups;

import atlantafx.base.theme.Styles;
import com.google.cloud.datastore.Entity;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.datastore.EntityJson;
import io.keyranger.job.RestoreMode;
import io.keyranger.keys.KeyFormat;
import io.keyranger.ui.common.FittedColumns;
import io.keyranger.ui.common.OffReason;
import io.keyranger.ui.common.WrappingCell;
import io.keyranger.ui.common.WriteConfirmation;
import java.io.File;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.util.StringConverter;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The Backups tab: a managed export opened read-only (its kinds with counts, a GQL query applied on the client with
 * pages, a key lookup) and, against the open connection, a comparison (what was added, removed and changed since, one
 * entity side by side) and a restore of the kind. The database as of a past moment opens beside it and is compared and
 * restored from the same way.
 */
public final class BackupsView extends BorderPane {
    /** Beside the side by side's columns: its vertical scroll bar and borders. */
    private static final double SIDES_EDGE = 20;

    private final BackupsViewModel model;

    public BackupsView(BackupsViewModel model) {
        this.model = model;
        setTop(openBar());
        ListView<BackupsViewModel.KindRow> kinds = new ListView<>(model.kinds());
        kinds.setId("exportKinds");
        kinds.setPlaceholder(new Label("No export open"));
        kinds.getSelectionModel().selectedItemProperty().addListener((obs, old, row) -> {
            if (row != null) {
                model.selectedKindProperty().set(row);
            }
        });
        model.selectedKindProperty().addListener((obs, old, row) -> {
            if (row != null && kinds.getSelectionModel().getSelectedItem() != row) {
                kinds.getSelectionModel().select(row);
            }
        });
        kinds.setCellFactory(list -> new KindCell());
        kinds.setMinWidth(140);
        kinds.setPrefWidth(190);
        kinds.setMaxWidth(240);
        SplitPane right = new SplitPane(browser(), comparison());
        right.setOrientation(Orientation.VERTICAL);
        right.setDividerPositions(0.45);
        SplitPane split = new SplitPane(kinds, right);
        SplitPane.setResizableWithParent(kinds, false);
        split.setDividerPositions(0.2);
        setCenter(split);
    }

    private VBox openBar() {
        TextField location = new TextField();
        location.setId("exportLocation");
        location.setPromptText("The export's folder or its .overall_export_metadata file");
        location.textProperty().bindBidirectional(model.locationProperty());
        location.setOnAction(e -> model.open());
        HBox.setHgrow(location, Priority.ALWAYS);
        Button browse = new Button("Browse…", new FontIcon(Material2MZ.SEARCH));
        browse.setOnAction(e -> {
            DirectoryChooser chooser = new DirectoryChooser();
            chooser.setTitle("Open a managed export");
            File dir = chooser.showDialog(getScene().getWindow());
            if (dir != null) {
                model.locationProperty().set(dir.toString());
                model.open();
            }
        });
        Button open = new Button("Open", new FontIcon(Material2MZ.OPEN_IN_BROWSER));
        open.setId("openExport");
        open.getStyleClass().add("accent");
        open.disableProperty().bind(model.busyProperty());
        open.setOnAction(e -> model.open());
        Label summary = new Label();
        summary.setId("exportSummary");
        summary.setWrapText(true);
        summary.textProperty().bind(model.summaryProperty());
        Label notice = new Label();
        notice.setId("exportLocationNotice");
        notice.setWrapText(true);
        notice.getStyleClass().add(Styles.WARNING);
        notice.textProperty().bind(model.locationNotice());
        notice.managedProperty().bind(notice.textProperty().isNotEmpty());
        notice.visibleProperty().bind(notice.managedProperty());
        TextField time = new TextField();
        time.setId("backupAsOf");
        time.setPromptText("-15m or 2026-11-27T10:15:00Z");
        time.setPrefColumnCount(19);
        time.setMinWidth(Region.USE_PREF_SIZE);
        time.textProperty().bindBidirectional(model.asOfProperty());
        time.setOnAction(e -> model.openPast());
        Button openPast = new Button("Open as of", new FontIcon(Material2MZ.RESTORE));
        openPast.setId("openPastBackup");
        openPast.setMinWidth(Region.USE_PREF_SIZE);
        openPast.disableProperty().bind(model.canOpenPast().not());
        openPast.setOnAction(e -> model.openPast());
        time.disableProperty().bind(model.pastOff().isNotEmpty());
        Label or = new Label("Or the database as it was at");
        or.setMinWidth(Region.USE_PREF_SIZE);
        HBox pastRow = new HBox(6, or, time, openPast);
        pastRow.setId("backupPastRow");
        pastRow.setAlignment(Pos.CENTER_LEFT);
        OffReason.install(pastRow, model.pastOff()); // off on the legacy emulator: hovering the row says why
        VBox box = new VBox(6, new HBox(6, location, browse, open), pastRow, summary, notice);
        box.setPadding(new Insets(8));
        return box;
    }

    private VBox browser() {
        ExportPages pages = model.pages();
        TextField query = new TextField();
        query.setId("exportQuery");
        query.textProperty().bindBidirectional(pages.queryProperty());
        query.setOnAction(e -> pages.runQuery());
        HBox.setHgrow(query, Priority.ALWAYS);
        Button run = new Button("Run", new FontIcon(Material2MZ.PLAY_ARROW));
        run.setId("runExportQuery");
        run.disableProperty().bind(model.canQuery().not());
        run.setOnAction(e -> pages.runQuery());
        TextField key = new TextField();
        key.setId("exportKey");
        key.setPromptText("KEY(Kind, 42)");
        key.textProperty().bindBidirectional(pages.keyProperty());
        key.setOnAction(e -> pages.lookUp());
        key.setPrefWidth(170);
        Button lookUp = new Button("Look up", new FontIcon(Material2MZ.SEARCH));
        lookUp.setId("lookUpExportKey");
        lookUp.disableProperty().bind(run.disableProperty());
        lookUp.setOnAction(e -> pages.lookUp());

        TableView<Entity> table = new TableView<>(pages.entities());
        table.setId("exportEntities");
        Label placeholder = new Label();
        placeholder.textProperty().bind(Bindings.when(model.pastProperty().isNull()).then("Select a kind")
                .otherwise("The past pages on the Entities tab: As of, beside its pager"));
        table.setPlaceholder(placeholder);
        TableColumn<Entity, String> keyColumn = column("Key", e -> KeyFormat.format(e.getKey()), 220);
        TableColumn<Entity, String> properties = column("Properties", e -> e.getNames().stream().sorted()
                .map(n -> n + "=" + EntityJson.cell(e.getValue(n))).collect(Collectors.joining(", ")), 700);
        table.getColumns().add(keyColumn);
        table.getColumns().add(properties);
        // two columns, the key and all of an entity's properties on one line: Properties takes the width the key
        // leaves (it ran past the table's edge), and a line longer than that shows whole as the cell's tooltip
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        FittedColumns.showFullValueAsTooltip(keyColumn);
        FittedColumns.showFullValueAsTooltip(properties);
        VBox.setVgrow(table, Priority.ALWAYS);

        Button previous = new Button("Previous", new FontIcon(Material2AL.ARROW_BACK));
        previous.setId("exportPrevious");
        previous.disableProperty().bind(pages.hasPreviousProperty().not().or(run.disableProperty()));
        previous.setOnAction(e -> pages.previousPage());
        Button next = new Button("Next", new FontIcon(Material2AL.ARROW_FORWARD));
        next.setId("exportNext");
        next.disableProperty().bind(pages.hasNextProperty().not().or(run.disableProperty()));
        next.setOnAction(e -> pages.nextPage());
        Label info = new Label();
        info.setId("exportPageInfo");
        info.textProperty().bind(pages.pageInfoProperty());
        info.setWrapText(true);
        info.setMinHeight(Region.USE_PREF_SIZE);
        HBox.setHgrow(info, Priority.ALWAYS);
        HBox paging = new HBox(6, previous, next, info);
        paging.setAlignment(Pos.CENTER_LEFT);
        for (Button b : new Button[] {run, lookUp, previous, next}) {
            b.setMinWidth(Region.USE_PREF_SIZE);
        }
        Label gql = new Label("GQL");
        gql.setMinWidth(Region.USE_PREF_SIZE);
        VBox box = new VBox(6, new HBox(6, gql, query, run, key, lookUp), table, paging);
        ((HBox) box.getChildren().get(0)).setAlignment(Pos.CENTER_LEFT);
        box.setPadding(new Insets(6, 8, 6, 8));
        return box;
    }

    private VBox comparison() {
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
        TableColumn<ExportDiff.Example, String> outcome = column("Since\nexport", x -> x.before() == null ? "added"
                : x.now() == null ? "removed" : "changed", 80);
        outcome.textProperty().bind(Bindings.when(model.pastProperty().isNull()).then("Since\nexport")
                .otherwise("Since\nthen"));
        examples.getColumns().add(outcome);
        TableColumn<ExportDiff.Example, String> key = column("Key", x -> KeyFormat.format(x.key()), 170);
        examples.getColumns().add(key);
        TableColumn<ExportDiff.Example, String> what = column("What differs", ExportDiff.Example::what, 380);
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
        TableColumn<SideBySide.Row, String> property = column("Property", SideBySide.Row::property, 90);
        sides.getColumns().add(property);
        // two lines, as the comparison's first header: the room goes to the comparison's keys
        TableColumn<SideBySide.Row, String> then = column("In the\nexport", SideBySide.Row::exported, 150);
        then.textProperty().bind(Bindings.when(model.pastProperty().isNull()).then("In the\nexport")
                .otherwise("Then"));
        sides.getColumns().add(then);
        sides.getColumns().add(column("Live", SideBySide.Row::live, 150));
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
        VBox box = new VBox(6, actions, undoWindow(mode), summary, preview, tables);
        box.setPadding(new Insets(6, 8, 6, 8));
        return box;
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

    private static <T> TableColumn<T, String> column(String title, Function<T, String> value,
                                                     double width) {
        TableColumn<T, String> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue() == null ? "" : value.apply(c.getValue())));
        column.setPrefWidth(width);
        FittedColumns.neverNarrowerThanHeader(column);
        return column;
    }

    /** A kind of the export; KeyRanger's own kinds muted, under a heading above the first of them. */
    private static final class KindCell extends ListCell<BackupsViewModel.KindRow> {
        @Override
        protected void updateItem(BackupsViewModel.KindRow row, boolean empty) {
            super.updateItem(row, empty);
            getStyleClass().remove(Styles.TEXT_MUTED);
            setGraphic(null);
            if (empty || row == null) {
                setText(null);
                return;
            }
            setText(row.toString());
            if (!row.keyRangers()) {
                return;
            }
            getStyleClass().add(Styles.TEXT_MUTED);
            int i = getIndex();
            if (i == 0 || !getListView().getItems().get(i - 1).keyRangers()) {
                Label heading = new Label("KeyRanger's own (jobs, undo)");
                heading.getStyleClass().add(Styles.TEXT_BOLD);
                setGraphic(heading);
                setContentDisplay(ContentDisplay.TOP);
            }
        }
    }
}
