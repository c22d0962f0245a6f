package io.keyranger.ui.mapper;

import atlantafx.base.theme.Styles;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.ui.common.FittedColumns;
import io.keyranger.ui.run.JobGuard;
import io.keyranger.ui.run.RunViewModel;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** The Mapper tab: examples, a form built from the template's parameters, the spec, and the dry run. */
public final class MapperView extends BorderPane {
    private final MapperViewModel model;
    private final RunViewModel run;
    private final Runnable showRunTab;
    private final ParamForm form;
    private final SplitPane split = new SplitPane();

    public MapperView(MapperViewModel model, RunViewModel run, Runnable showRunTab) {
        this.model = model;
        this.form = new ParamForm(model);
        this.run = run;
        this.showRunTab = showRunTab;
        ScrollPane editor = new ScrollPane(editor());
        editor.setId("mapperEditor");
        editor.setFitToWidth(true);
        editor.setFitToHeight(true);
        editor.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        split.getItems().setAll(editor, results());
        split.setId("mapperSplit");
        split.setDividerPositions(0.45); // the form's fields are short; the dry run's keys and values are long
        setCenter(split);
        model.templateProperty().addListener((obs, old, t) -> form.build(t));
        form.build(model.templateProperty().get());
    }

    /** The form / dry-run split, whose divider the window remembers. */
    public SplitPane splitPane() {
        return split;
    }

    /**
     * The specs that ship with the app, as a menu beside the template: a list beside the form left the dry run a
     * third of the tab, too narrow for a key and its before and after.
     */
    private MenuButton examples() {
        MenuButton menu = new MenuButton("Examples");
        menu.setId("examples");
        menu.setTooltip(new Tooltip("Start from a spec that ships with KeyRanger"));
        for (MapperExamples.Example example : model.examples()) {
            MenuItem item = new MenuItem(example.title());
            item.setOnAction(e -> model.load(example.json()));
            menu.getItems().add(item);
        }
        return menu;
    }

    private VBox editor() {
        ComboBox<Template> template = new ComboBox<>();
        template.setId("templateChoice");
        template.getItems().setAll(Mappers.templates());
        template.valueProperty().bindBidirectional(model.templateProperty());
        template.setConverter(new StringConverter<>() {
            @Override
            public String toString(Template t) {
                return t == null ? "" : t.name();
            }

            @Override
            public Template fromString(String name) {
                return Mappers.template(name);
            }
        });
        Label description = new Label();
        description.setId("templateDescription");
        description.setWrapText(true);
        description.setMinHeight(Region.USE_PREF_SIZE);
        description.textProperty().bind(model.templateProperty().map(t -> t == null ? "" : t.description()
                + (t.writes() ? (t.idempotent() ? " Writes; safe to repeat." : " Writes; applied exactly once.")
                : " Reads only.")));
        TextField where = new TextField();
        where.setId("whereField");
        where.setPromptText("tier=pro, active=true");
        where.setTooltip(new Tooltip("Which entities to map: property=value pairs (tier=pro, "
                + "active=true), or a CEL expression such as has(balance) && tier != 'closed'. Blank: all."));
        where.textProperty().bindBidirectional(model.whereProperty());
        TextField gql = new TextField();
        gql.setId("mapperGql");
        gql.setPromptText("SELECT * FROM Account WHERE …");
        gql.setTooltip(new Tooltip("The entities a GQL query selects, e.g. SELECT * FROM Account "
                + "WHERE tier = 'pro' AND balance > 100. Blank: the whole kind."));
        gql.getStyleClass().add("monospace");
        gql.textProperty().bindBidirectional(model.gqlProperty());
        Spinner<Integer> sample = new Spinner<>(1, 500, model.sampleProperty().get());
        sample.setId("dryRunSample");
        sample.setPrefWidth(90);
        sample.valueProperty().addListener((obs, old, v) -> model.sampleProperty().set(v));
        Label specError = new Label();
        specError.setId("specError");
        specError.setWrapText(true);
        specError.setMinHeight(Region.USE_PREF_SIZE);
        specError.getStyleClass().add(Styles.DANGER);
        specError.textProperty().bind(model.specErrorProperty());

        Button dryRun = new Button("Dry run", new FontIcon(Material2MZ.PLAY_CIRCLE_OUTLINE));
        dryRun.setId("dryRun");
        dryRun.setOnAction(e -> model.dryRun());
        Button runNow = new Button("Run", new FontIcon(Material2MZ.PLAY_ARROW));
        runNow.setId("runNow");
        runNow.getStyleClass().add(Styles.ACCENT);
        runNow.disableProperty().bind(run.status().runningProperty().or(run.targetProperty().isNull())
                .or(model.validProperty().not()));
        runNow.setOnAction(e -> runNow());
        Button useInRun = new Button("Open in Run tab");
        useInRun.setId("useInRun");
        useInRun.setOnAction(e -> {
            model.sendToRun();
            showRunTab.run();
        });
        Button save = new Button("Save…", new FontIcon(Material2MZ.SAVE));
        save.setId("saveSpec");
        save.setOnAction(e -> chooseFile(true, model::saveFile));
        Button load = new Button("Load…", new FontIcon(Material2AL.FOLDER_OPEN));
        load.setId("loadSpec");
        load.setOnAction(e -> chooseFile(false, model::loadFile));

        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox top = new HBox(8, ParamForm.fixed(new Label("Template")), template, gap, ParamForm.fixed(examples()));
        top.setAlignment(Pos.CENTER_LEFT);
        HBox whereRow = new HBox(8, ParamForm.fixed(new Label("Where")), where, ParamForm.fixed(new Label("Sample")), sample);
        whereRow.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(where, Priority.ALWAYS);
        FlowPane buttons = new FlowPane(8, 8, ParamForm.fixed(dryRun), ParamForm.fixed(runNow),
                ParamForm.fixed(useInRun), ParamForm.fixed(save), ParamForm.fixed(load));
        buttons.getStyleClass().add("wraps"); // Save… and Load… go below the job's buttons in a narrow form, by design
        TextArea json = new TextArea();
        json.setId("specJson");
        json.setEditable(false);
        json.getStyleClass().add("monospace");
        json.textProperty().bind(model.jsonProperty());
        json.setPrefRowCount(8);
        HBox gqlRow = new HBox(8, ParamForm.fixed(new Label("Query")), gql);
        gqlRow.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(gql, Priority.ALWAYS);
        Label gqlWarning = new Label();
        gqlWarning.setId("mapperGqlWarning");
        gqlWarning.setWrapText(true);
        gqlWarning.setMinHeight(Region.USE_PREF_SIZE);
        gqlWarning.getStyleClass().add(Styles.WARNING);
        gqlWarning.textProperty().bind(model.gqlWarningProperty());
        gqlWarning.visibleProperty().bind(gqlWarning.textProperty().isNotEmpty());
        gqlWarning.managedProperty().bind(gqlWarning.visibleProperty());
        VBox box = new VBox(10, top, description, form.grid(), whereRow, gqlRow, gqlWarning, specError, buttons, json);
        box.setPadding(new Insets(10));
        VBox.setVgrow(json, Priority.ALWAYS);
        return box;
    }

    private void runNow() {
        model.sendToRun();
        switch (JobGuard.check(getScene().getWindow(), run.targetProperty().get(), run.startPrice().consent(), List.of())) {
            case RUN -> {
                showRunTab.run();
                run.start();
            }
            case EXPORT_FIRST -> {
                showRunTab.run();
                run.startBackedUp();
            }
            default -> { }
        }
    }

    private VBox results() {
        TableView<DryRunner.Change> table = new TableView<>(model.changes());
        table.setId("dryRunTable");
        Label placeholder = new Label("Dry-run a spec to see what it would change");
        placeholder.setWrapText(true);
        placeholder.setPadding(new Insets(8));
        table.setPlaceholder(placeholder);
        // four columns, all in sight, as wide as their text while that fits; when it does not, the key, which says
        // which entity changed, keeps its width and the others give way down to their headers (a cell then shows its
        // whole value as a tooltip); room to spare goes to After. Scrolling sideways hid the After column; shrinking
        // all alike cut the key to "Acco…"
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<DryRunner.Change, String> key = column("dryRunKey", "Key", DryRunner.Change::key);
        table.getColumns().add(key);
        for (TableColumn<DryRunner.Change, String> value : List.of(
                column("dryRunProperty", "Property", DryRunner.Change::property),
                column("dryRunBefore", "Before", DryRunner.Change::before),
                column("dryRunAfter", "After", DryRunner.Change::after))) {
            FittedColumns.neverNarrowerThanHeader(value);
            table.getColumns().add(value);
        }
        FittedColumns.fitToText(table);
        FittedColumns.givesWayLast(table, key);
        Label summary = new Label();
        summary.setId("dryRunSummary");
        summary.setWrapText(true);
        summary.textProperty().bind(model.dryRunSummaryProperty());
        VBox box = new VBox(8, summary, table);
        box.setPadding(new Insets(10));
        VBox.setVgrow(table, Priority.ALWAYS);
        return box;
    }

    private static TableColumn<DryRunner.Change, String> column(String id, String title,
            Function<DryRunner.Change, String> f) {
        TableColumn<DryRunner.Change, String> column = new TableColumn<>(title);
        column.setId(id);
        column.setCellValueFactory(c -> new ReadOnlyStringWrapper(f.apply(c.getValue())));
        FittedColumns.showFullValueAsTooltip(column);
        return column;
    }

    private void chooseFile(boolean save, Consumer<Path> action) {
        FileChooser chooser = new FileChooser();
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("Mapper spec", "*.json"));
        File file = save ? chooser.showSaveDialog(getScene().getWindow()) : chooser.showOpenDialog(getScene().getWindow());
        if (file != null) {
            action.accept(file.toPath());
        }
    }
}
