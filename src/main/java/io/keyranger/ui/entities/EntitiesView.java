package io.keyranger.ui.entities;

import atlantafx.base.theme.Styles;
import com.google.cloud.datastore.Entity;
import io.keyranger.keys.KeyFormat;
import io.keyranger.ui.asof.AsOfBar;
import io.keyranger.ui.common.Completer;
import io.keyranger.ui.common.FittedColumns;
import io.keyranger.ui.common.WriteConfirmation;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import io.keyranger.ui.common.HoverTooltip;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** The Entities tab: a cursor-paged table of the selected kind and the selected entity as JSON. */
public final class EntitiesView extends BorderPane {
    private final EntitiesViewModel model;
    private final TableView<Entity> table = new TableView<>();
    private final SplitPane split = new SplitPane();
    private final TableColumn<Entity, String> keyColumn = new TableColumn<>("Key");

    /** {@code asOf}: the window's "As of" control, shown beside the pager. */
    public EntitiesView(EntitiesViewModel model, AsOfBar asOf) {
        this.model = model;
        table.setId("entityTable");
        table.getStyleClass().add("scrolls-sideways"); // a column per property: wider than the pane, by design
        table.setItems(model.rows());
        table.setPlaceholder(new Label("No entities to show"));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setRowFactory(view -> {
            TableRow<Entity> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && !row.isEmpty()) {
                    editSelected();
                }
            });
            return row;
        });
        table.getSelectionModel().selectedItemProperty().addListener((obs, old, entity) -> {
            if (entity != null) {
                model.selectedProperty().set(entity);
            }
        });
        model.selectedProperty().addListener((obs, old, entity) -> {
            if (entity != null && table.getSelectionModel().getSelectedItem() != entity) {
                table.getSelectionModel().select(entity);
            }
        });
        keyColumn.setId("keyColumn");
        keyColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(KeyFormat.format(cell.getValue().getKey())));
        FittedColumns.showFullValueAsTooltip(keyColumn);
        rebuildColumns();
        FittedColumns.fitToText(table);
        model.columns().addListener((ListChangeListener<String>) change -> rebuildColumns());

        TextArea json = new TextArea();
        json.setId("entityJson");
        json.setEditable(false);
        json.getStyleClass().add("monospace");
        json.textProperty().bind(model.selectedJsonProperty());

        split.getItems().setAll(table, json);
        split.setId("entitiesSplit");
        split.setDividerPositions(0.62);
        VBox.setMargin(asOf.messages(), new Insets(0, 8, 6, 8));
        setTop(new VBox(queryBar(), pager(asOf), asOf.messages(), editBar()));
        setCenter(split);
    }

    /** The table / JSON split, whose divider the window remembers. */
    public SplitPane splitPane() {
        return split;
    }

    /** The GQL box: Enter or Run runs it; completions offer the kind's properties; errors show beneath it. */
    private VBox queryBar() {
        TextField query = new TextField();
        query.setId("gqlQuery");
        query.getStyleClass().add("monospace");
        query.setPromptText("SELECT * FROM Kind WHERE property = 'value' AND other > 10");
        query.textProperty().bindBidirectional(model.queryTextProperty());
        query.setOnAction(e -> model.runQuery());
        bindCompletions(query);
        Button run = new Button("Run query", new FontIcon(Material2MZ.PLAY_ARROW));
        run.setId("runQuery");
        run.disableProperty().bind(model.loadingProperty());
        run.setOnAction(e -> model.runQuery());
        HBox.setHgrow(query, Priority.ALWAYS);
        HBox box = new HBox(8, new Label("GQL"), query, run);
        box.setAlignment(Pos.CENTER_LEFT);
        Label error = new Label();
        error.setId("gqlError");
        error.setWrapText(true);
        error.getStyleClass().add(Styles.DANGER);
        error.textProperty().bind(model.queryErrorProperty());
        error.visibleProperty().bind(model.queryErrorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        model.queryErrorColumnProperty().addListener((obs, old, column) -> {
            if (column.intValue() > 0) {
                query.requestFocus();
                query.positionCaret(Math.min(column.intValue() - 1, query.getLength()));
            }
        });
        Label warning = new Label();
        warning.setId("gqlWarning");
        warning.setWrapText(true);
        warning.getStyleClass().add(Styles.WARNING);
        warning.textProperty().bind(model.queryWarningProperty());
        warning.visibleProperty().bind(model.queryWarningProperty().isNotEmpty());
        warning.managedProperty().bind(warning.visibleProperty());
        VBox bar = new VBox(4, box, error, warning);
        bar.setPadding(new Insets(6, 8, 0, 8));
        return bar;
    }

    /** Completions: the popup shows the completed word; choosing it puts the whole completed text in the box. */
    private void bindCompletions(TextField query) {
        Completer.attach(query, model::completions, EntitiesView::lastWord).width(260);
    }

    private static String lastWord(String text) {
        int start = text.length();
        while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || "_$.(".indexOf(text.charAt(start - 1)) >= 0
                || text.charAt(start - 1) == ' ' && start > 1 && text.substring(0, start - 1).matches(
                "(?is).*\\b(ORDER|NOT|IS|HAS)$"))) {
            start--;
        }
        return text.substring(start);
    }

    /** New, edit, delete (the selection), undo and redo; refused on a read-only connection. */
    private HBox editBar() {
        Button create = new Button("New", new FontIcon(Material2AL.ADD));
        create.setId("newEntity");
        create.setOnAction(e -> createEntity());
        Button edit = new Button("Edit", new FontIcon(Material2AL.EDIT));
        edit.setId("editEntity");
        edit.setOnAction(e -> editSelected());
        Button delete = new Button("Delete", new FontIcon(Material2AL.DELETE));
        delete.setId("deleteEntities");
        delete.getStyleClass().add(Styles.DANGER);
        delete.setOnAction(e -> deleteSelected());
        EntityEdits edits = model.edits();
        Button undo = new Button("Undo", new FontIcon(Material2MZ.UNDO));
        undo.setId("undoEdit");
        undo.setOnAction(e -> {
            if (WriteConfirmation.confirm(getScene().getWindow(), edits.connection(), "Undo")) {
                edits.undo();
            }
        });
        Button redo = new Button("Redo", new FontIcon(Material2MZ.REDO));
        redo.setId("redoEdit");
        redo.setOnAction(e -> {
            if (WriteConfirmation.confirm(getScene().getWindow(), edits.connection(), "Redo")) {
                edits.redo();
            }
        });
        create.disableProperty().bind(model.edits().readOnlyProperty());
        Label readOnly = new Label();
        readOnly.setId("editingOff");
        readOnly.textProperty().bind(model.edits().readOnlyReasonProperty());
        readOnly.visibleProperty().bind(model.edits().readOnlyProperty());
        readOnly.managedProperty().bind(readOnly.visibleProperty());
        Label status = new Label();
        status.setId("editStatus");
        status.textProperty().bind(model.edits().statusProperty());
        // the buttons keep their words; a long message gives way (cut with "…") and reads whole in its tooltip
        for (Button button : List.of(create, edit, delete, undo, redo)) {
            button.setMinWidth(Region.USE_PREF_SIZE);
        }
        for (Label message : List.of(readOnly, status)) {
            message.setMinWidth(0);
            HoverTooltip.ofText(message);
        }
        HBox.setHgrow(status, Priority.ALWAYS);
        HBox bar = new HBox(8, create, edit, delete, undo, redo, readOnly, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(0, 8, 6, 8));
        edit.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull()
                .or(model.edits().readOnlyProperty()));
        delete.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull()
                .or(model.edits().readOnlyProperty()));
        undo.disableProperty().bind(edits.canUndoProperty().not().or(edits.readOnlyProperty()));
        redo.disableProperty().bind(edits.canRedoProperty().not().or(edits.readOnlyProperty()));
        return bar;
    }

    private void createEntity() {
        if (model.kind() == null) {
            return;
        }
        EntityEditorDialog dialog = new EntityEditorDialog(null, model.kind(), model.place());
        dialog.initOwner(getScene().getWindow());
        dialog.showAndWait().ifPresent(entity -> {
            if (WriteConfirmation.confirm(getScene().getWindow(), model.edits().connection(), "Creating an entity")) {
                model.edits().create(entity);
            }
        });
    }

    private void editSelected() {
        Entity original = table.getSelectionModel().getSelectedItem();
        if (original == null || model.edits().readOnlyProperty().get()) {
            return;
        }
        EntityEditorDialog dialog = new EntityEditorDialog(original, original.getKey().getKind(), model.place());
        dialog.initOwner(getScene().getWindow());
        dialog.showAndWait().ifPresent(changed -> {
            if (WriteConfirmation.confirm(getScene().getWindow(), model.edits().connection(), "Saving an entity")) {
                model.edits().update(original, changed);
            }
        });
    }

    private void deleteSelected() {
        List<Entity> selected = List.copyOf(table.getSelectionModel().getSelectedItems());
        if (selected.isEmpty()) {
            return;
        }
        String keys = String.join("\n", selected.stream().limit(10).map(e -> KeyFormat.format(e.getKey())).toList())
                + (selected.size() > 10 ? "\n… and " + (selected.size() - 10) + " more" : "");
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, keys, ButtonType.OK, ButtonType.CANCEL);
        confirm.initOwner(getScene().getWindow());
        confirm.setHeaderText("Delete " + (selected.size() == 1 ? "this entity" : "these " + selected.size()
                + " entities") + "? Undo can put " + (selected.size() == 1 ? "it" : "them") + " back until the window "
                + "closes.");
        if (confirm.showAndWait().orElse(ButtonType.CANCEL) == ButtonType.OK
                && WriteConfirmation.confirm(getScene().getWindow(), model.edits().connection(), "Deleting")) {
            model.edits().delete(selected);
        }
    }

    private HBox pager(AsOfBar asOf) {
        Label title = new Label();
        title.setId("pageTitle");
        title.textProperty().bind(model.titleProperty());
        Button previous = new Button("Previous", new FontIcon(Material2MZ.NAVIGATE_BEFORE));
        previous.setId("previousPage");
        previous.disableProperty().bind(model.pageNumberProperty().lessThanOrEqualTo(1).or(model.loadingProperty()));
        previous.setOnAction(e -> model.previousPage());
        Button next = new Button("Next", new FontIcon(Material2MZ.NAVIGATE_NEXT));
        next.setId("nextPage");
        next.disableProperty().bind(model.hasNextProperty().not().or(model.loadingProperty()));
        next.setOnAction(e -> model.nextPage());
        // the buttons keep their words; a long title (a query's) gives way and reads whole in its tooltip
        previous.setMinWidth(Region.USE_PREF_SIZE);
        next.setMinWidth(Region.USE_PREF_SIZE);
        title.setMinWidth(0);
        HoverTooltip.ofText(title);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(8, title, spacer, asOf.controls(), previous, next);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        return bar;
    }

    private void rebuildColumns() {
        List<TableColumn<Entity, ?>> columns = new ArrayList<>();
        columns.add(keyColumn);
        for (String name : model.columns()) {
            TableColumn<Entity, String> column = new TableColumn<>(name);
            column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(model.cellText(cell.getValue(), name)));
            FittedColumns.showFullValueAsTooltip(column);
            columns.add(column);
        }
        table.getColumns().setAll(columns); // at once: each change of the columns measures them all
    }
}
