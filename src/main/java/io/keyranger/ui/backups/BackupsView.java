package io.keyranger.ui.backups;

import javafx.util.StringConverter;
import io.keyranger.profile.ConnectionProfile;
import javafx.scene.control.ComboBox;
import atlantafx.base.theme.Styles;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.EntityJson;
import io.keyranger.keys.KeyFormat;
import io.keyranger.ui.common.FittedColumns;
import io.keyranger.ui.common.OffReason;
import java.io.File;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
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
        SplitPane right = new SplitPane(browser(), new ComparisonPane(model));
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
        ComboBox<ConnectionProfile> other = new ComboBox<>(model.profiles());
        other.setId("backupDatabase");
        other.setPromptText("a saved connection");
        other.valueProperty().bindBidirectional(model.profileProperty());
        other.setConverter(new StringConverter<>() {
            @Override
            public String toString(ConnectionProfile profile) {
                return profile == null ? "" : profile.name();
            }

            @Override
            public ConnectionProfile fromString(String text) {
                return model.profiles().stream().filter(p -> p.name().equals(text)).findFirst().orElse(null);
            }
        });
        Button openOther = new Button("Open database", new FontIcon(Material2AL.LINK));
        openOther.setId("openOtherBackup");
        openOther.setMinWidth(Region.USE_PREF_SIZE);
        openOther.disableProperty().bind(model.canOpenOther().not());
        openOther.setOnAction(e -> model.openOther());
        Label another = new Label("Or another database");
        another.setMinWidth(Region.USE_PREF_SIZE);
        HBox otherRow = new HBox(6, another, other, openOther);
        otherRow.setId("backupOtherRow");
        otherRow.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(6, new HBox(6, location, browse, open), pastRow, otherRow, summary, notice);
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

    static <T> TableColumn<T, String> column(String title, Function<T, String> value,
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
