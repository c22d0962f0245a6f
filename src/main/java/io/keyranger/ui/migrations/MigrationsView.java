package io.keyranger.ui.migrations;

import io.keyranger.ui.common.WriteConfirmation;
import java.io.File;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Orientation;
import javafx.stage.DirectoryChooser;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The Migrations tab ({@link MigrationsViewModel}): a folder of migrations opened against the connected database,
 * each with its state; Plan shows every pending step's dry run and price; Apply runs the pending ones; Roll back takes
 * back the selected migration and those after it. Their jobs run on the Run tab.
 */
public final class MigrationsView extends BorderPane {
    private final MigrationsViewModel model;

    public MigrationsView(MigrationsViewModel model) {
        this.model = model;
        TableView<MigrationsViewModel.Row> table = table();
        setTop(openBar());
        TextArea plan = new TextArea();
        plan.setId("migrationsPlan");
        plan.setEditable(false);
        plan.setPromptText("Plan shows each pending step's dry run and price here.");
        plan.textProperty().bind(model.planProperty());
        plan.getStyleClass().add("monospace");
        SplitPane split = new SplitPane(table, plan);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.45);
        setCenter(split);
        setBottom(actions(table));
    }

    private VBox openBar() {
        TextField location = new TextField();
        location.setId("migrationsFolder");
        location.setPromptText("A folder of NNNN_description.json migrations");
        location.textProperty().bindBidirectional(model.folderProperty());
        location.setOnAction(e -> model.open());
        HBox.setHgrow(location, Priority.ALWAYS);
        Button browse = new Button("Browse…", new FontIcon(Material2MZ.SEARCH));
        browse.setMinWidth(Region.USE_PREF_SIZE);
        browse.setOnAction(e -> {
            DirectoryChooser chooser = new DirectoryChooser();
            chooser.setTitle("Open a folder of migrations");
            File dir = chooser.showDialog(getScene().getWindow());
            if (dir != null) {
                model.folderProperty().set(dir.toString());
                model.open();
            }
        });
        Button open = new Button("Open", new FontIcon(Material2MZ.OPEN_IN_BROWSER));
        open.setId("openMigrations");
        open.setMinWidth(Region.USE_PREF_SIZE);
        open.getStyleClass().add("accent");
        open.disableProperty().bind(model.busyProperty().or(model.sessionProperty().isNull()));
        open.setOnAction(e -> model.open());
        HBox row = new HBox(6, new Label("Folder"), location, browse, open);
        row.setAlignment(Pos.CENTER_LEFT);
        Label message = new Label();
        message.setId("migrationsMessage");
        message.setWrapText(true);
        message.textProperty().bind(model.messageProperty());
        VBox bar = new VBox(6, row, message);
        bar.setPadding(new Insets(8));
        return bar;
    }

    private TableView<MigrationsViewModel.Row> table() {
        TableView<MigrationsViewModel.Row> table = new TableView<>(model.rows());
        table.setId("migrationsTable");
        table.setPlaceholder(new Label("No migrations open"));
        TableColumn<MigrationsViewModel.Row, Number> number = new TableColumn<>("No.");
        number.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().number()));
        number.setPrefWidth(60);
        TableColumn<MigrationsViewModel.Row, String> file = new TableColumn<>("File");
        file.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().file()));
        file.setPrefWidth(260);
        TableColumn<MigrationsViewModel.Row, String> state = new TableColumn<>("State here");
        state.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().state()));
        state.setPrefWidth(170);
        TableColumn<MigrationsViewModel.Row, String> jobs = new TableColumn<>("Jobs · ended · note");
        jobs.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().detail()));
        jobs.setPrefWidth(420);
        table.getColumns().setAll(List.of(number, file, state, jobs));
        return table;
    }

    private HBox actions(TableView<MigrationsViewModel.Row> table) {
        Button plan = new Button("Plan", new FontIcon(Material2AL.ASSIGNMENT));
        plan.setId("planMigrations");
        plan.setTooltip(new Tooltip("Each pending step's dry run, with its price; writes nothing."));
        plan.setOnAction(e -> model.plan());
        Button apply = new Button("Apply", new FontIcon(Material2MZ.PLAY_ARROW));
        apply.setId("applyMigrations");
        apply.getStyleClass().add("accent");
        apply.setTooltip(new Tooltip("Apply every pending migration in order; each step runs on the Run tab."));
        apply.setOnAction(e -> model.apply((spec, what) -> WriteConfirmation.confirm(getScene().getWindow(), spec,
                what)));
        Button rollBack = new Button("Roll back to before selected", new FontIcon(Material2MZ.UNDO));
        rollBack.setId("rollBackMigrations");
        rollBack.setTooltip(new Tooltip("Take back the selected migration and every later one, newest first, "
                + "through their undo records; later changes are left alone."));
        rollBack.setOnAction(e -> {
            MigrationsViewModel.Row row = table.getSelectionModel().getSelectedItem();
            if (row != null) {
                model.rollBack(row.number() - 1, (spec, what) -> WriteConfirmation.confirm(getScene().getWindow(),
                        spec, what));
            }
        });
        for (Button b : List.of(plan, apply)) {
            b.disableProperty().bind(model.busyProperty().or(Bindings.isEmpty(model.rows())));
        }
        rollBack.disableProperty().bind(model.busyProperty().or(table.getSelectionModel().selectedItemProperty()
                .isNull()));
        HBox bar = new HBox(8, plan, apply, rollBack);
        bar.setPadding(new Insets(8));
        bar.setAlignment(Pos.CENTER_LEFT);
        return bar;
    }
}
