package io.keyranger.ui.entities;

import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.EntityJson;
import io.keyranger.datastore.KeyFormat;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.scene.control.TextField;
import org.controlsfx.control.textfield.TextFields;
import atlantafx.base.theme.Styles;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2MZ;

/** The Entities tab: a cursor-paged table of the selected kind and the selected entity as JSON. */
public final class EntitiesView extends BorderPane {
    private final EntitiesViewModel model;
    private final TableView<Entity> table = new TableView<>();

    public EntitiesView(EntitiesViewModel model) {
        this.model = model;
        table.setId("entityTable");
        table.setItems(model.rows());
        table.setPlaceholder(new Label("No entities to show"));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
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
        rebuildColumns();
        model.columns().addListener((ListChangeListener<String>) change -> rebuildColumns());

        TextArea json = new TextArea();
        json.setId("entityJson");
        json.setEditable(false);
        json.getStyleClass().add("monospace");
        json.textProperty().bind(model.selectedJsonProperty());

        SplitPane split = new SplitPane(table, json);
        split.setDividerPositions(0.62);
        setTop(new VBox(queryBar(), pager()));
        setCenter(split);
    }

    /** The GQL box: Enter or Run runs it; completions offer the kind's properties; errors show beneath it. */
    private VBox queryBar() {
        TextField query = new TextField();
        query.setId("gqlQuery");
        query.getStyleClass().add("monospace");
        query.setPromptText("SELECT * FROM Kind WHERE property = 'value' AND other > 10");
        query.textProperty().bindBidirectional(model.queryTextProperty());
        query.setOnAction(e -> model.runQuery());
        TextFields.bindAutoCompletion(query, request -> model.completions(request.getUserText()));
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
        VBox bar = new VBox(4, box, error);
        bar.setPadding(new Insets(6, 8, 0, 8));
        return bar;
    }

    private HBox pager() {
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
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(8, title, spacer, previous, next);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        return bar;
    }

    private void rebuildColumns() {
        table.getColumns().clear();
        TableColumn<Entity, String> key = new TableColumn<>("Key");
        key.setCellValueFactory(cell -> new ReadOnlyStringWrapper(KeyFormat.format(cell.getValue().getKey())));
        key.setPrefWidth(220);
        table.getColumns().add(key);
        for (String name : model.columns()) {
            TableColumn<Entity, String> column = new TableColumn<>(name);
            column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(
                    cell.getValue().contains(name) ? EntityJson.cell(cell.getValue().getValue(name)) : ""));
            column.setPrefWidth(130);
            table.getColumns().add(column);
        }
    }
}
