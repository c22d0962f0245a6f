package io.keyranger.ui.main;

import atlantafx.base.theme.Styles;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.ui.asof.AsOfBar;
import io.keyranger.ui.backups.BackupsView;
import io.keyranger.ui.migrations.MigrationsView;
import io.keyranger.ui.entities.EntitiesView;
import io.keyranger.ui.shards.ShardsView;
import java.util.List;
import io.keyranger.ui.run.RunView;
import io.keyranger.ui.mapper.MapperView;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.kinds.KindListCell;
import java.util.Map;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;
import io.keyranger.demo.DemoRequest;

/** The main window: connection, namespace and kinds on the left, tabs in the centre, a status bar below. */
public final class MainView extends BorderPane {
    private final MainViewModel model;
    private final ToggleButton darkTheme = new ToggleButton(null, new FontIcon(Material2MZ.WB_SUNNY));
    private final SplitPane split = new SplitPane();
    private final EntitiesView entitiesView;
    private final MapperView mapperView;

    /**
     * @param model        the state
     * @param demoDefaults what the demo connection starts with
     * @param newProfile   asks the user for a new profile; returns null when cancelled
     */
    public MainView(MainViewModel model, Supplier<DemoRequest> demoDefaults,
                    Supplier<ConnectionProfile> newProfile) {
        this.model = model;
        entitiesView = new EntitiesView(model.entities(), new AsOfBar(model.asOf()));
        TabPane tabs = new TabPane();
        Tab runTab = new Tab("Run", new RunView(model.run()));
        mapperView = new MapperView(model.mapper(), model.run(), () -> tabs.getSelectionModel().select(runTab));
        tabs.getTabs().addAll(new Tab("Entities", entitiesView),
                new Tab("Shards", new ShardsView(model.shards())),
                new Tab("Mapper", mapperView), runTab,
                new Tab("Backups", new BackupsView(model.backups())),
                new Tab("Migrations", new MigrationsView(model.migrations())));
        model.backups().restoring().setRestorer(request -> {
            model.prepareRestore(request);
            tabs.getSelectionModel().select(runTab);
        });
        tabs.setId("mainTabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        VBox sidebar = sidebar(demoDefaults, newProfile);
        split.setId("mainSplit");
        split.getItems().setAll(sidebar, tabs);
        split.setDividerPositions(0.245);
        setTop(pastBanner());
        setCenter(split);
        setBottom(statusBar());
    }

    /** Across the top while the window shows the past: what moment, that it is read-only, and the way back. */
    private HBox pastBanner() {
        Label text = new Label();
        text.setId("pastBanner");
        text.setGraphic(new FontIcon(Material2MZ.UPDATE));
        text.textProperty().bind(model.asOf().bannerProperty());
        text.setWrapText(true);
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        Button back = new Button("Back to live", new FontIcon(Material2MZ.SKIP_NEXT));
        back.setId("bannerBackToLive");
        back.setMinWidth(Region.USE_PREF_SIZE);
        back.setOnAction(e -> model.asOf().backToLive());
        HBox banner = new HBox(10, text, gap, back);
        banner.getStyleClass().add("past-banner");
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.visibleProperty().bind(model.asOf().pastProperty().isNotNull());
        banner.managedProperty().bind(banner.visibleProperty());
        return banner;
    }

    public ToggleButton darkThemeToggle() {
        return darkTheme;
    }

    /** The split panes whose dividers the window remembers, by the name they are saved under. */
    public Map<String, SplitPane> splitPanes() {
        return Map.of("main", split, "entities", entitiesView.splitPane(), "mapper", mapperView.splitPane());
    }

    private VBox sidebar(Supplier<DemoRequest> demoDefaults, Supplier<ConnectionProfile> newProfile) {
        ComboBox<ConnectionChoice> choice = new ComboBox<>(model.connections().choices());
        choice.setId("connectionChoice");
        choice.valueProperty().bindBidirectional(model.connections().selectedChoiceProperty());
        choice.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(choice, Priority.ALWAYS);

        Button connect = new Button("Connect", new FontIcon(Material2AL.LINK));
        connect.setId("connectButton");
        connect.getStyleClass().add("accent"); // the next step until a connection is open, then a plain button
        model.sessionProperty().addListener((obs, old, now) -> {
            connect.getStyleClass().remove("accent");
            if (now == null) {
                connect.getStyleClass().add("accent");
            }
        });
        connect.disableProperty().bind(model.connections().connectingProperty());
        connect.setOnAction(e -> model.connections().connectSelected(demoDefaults.get()));

        Button add = new Button(null, new FontIcon(Material2AL.ADD));
        add.setId("newProfileButton");
        add.setTooltip(new Tooltip("Save a new connection"));
        add.setOnAction(e -> {
            var profile = newProfile.get();
            if (profile != null) {
                model.connections().saveProfile(profile);
            }
        });
        darkTheme.setId("darkTheme");
        darkTheme.setTooltip(new Tooltip("Dark theme"));

        ComboBox<String> namespace = new ComboBox<>(model.namespaces());
        namespace.setId("namespaceChoice");
        namespace.setMaxWidth(Double.MAX_VALUE);
        namespace.valueProperty().bindBidirectional(model.selectedNamespaceProperty());
        namespace.setConverter(new StringConverter<>() {
            @Override
            public String toString(String ns) {
                return ns == null ? "" : ns.isEmpty() ? "(default)" : ns;
            }

            @Override
            public String fromString(String text) {
                return "(default)".equals(text) ? "" : text;
            }
        });

        ListView<KindItem> kinds = new ListView<>(model.kinds());
        kinds.setId("kindList");
        kinds.setCellFactory(list -> new KindListCell());
        kinds.setPlaceholder(new Label("No kinds"));
        kinds.getSelectionModel().selectedItemProperty().addListener((obs, old, kind) ->
                model.selectedKindProperty().set(kind));
        model.selectedKindProperty().addListener((obs, old, kind) -> {
            if (kind == null) {
                kinds.getSelectionModel().clearSelection();
            } else if (kinds.getSelectionModel().getSelectedItem() != kind) {
                kinds.getSelectionModel().select(kind);
            }
        });
        // a click on the kind already selected shows it afresh (a failed query in the box is cleared)
        KindItem[] beforePress = new KindItem[1];
        kinds.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> beforePress[0] = kinds.getSelectionModel().getSelectedItem());
        kinds.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            KindItem now = kinds.getSelectionModel().getSelectedItem();
            if (now != null && now == beforePress[0] && e.getTarget() instanceof Node target
                    && cellOf(target) != null && cellOf(target).getItem() == now) {
                model.reopenSelectedKind();
            }
        });
        VBox.setVgrow(kinds, Priority.ALWAYS);
        // small at first and growing with the window, so that a low window still shows the properties below
        kinds.setPrefHeight(160);
        kinds.setMinHeight(80);

        // a server that cannot list kinds (the Firestore emulator): why the list is partial, and a kind typed in
        Label kindNote = new Label();
        kindNote.setId("kindListNote");
        kindNote.setWrapText(true);
        // all its lines, taken from the kinds list (which keeps its minimum) when the past's banner takes the height
        kindNote.setMinHeight(Region.USE_PREF_SIZE);
        kindNote.getStyleClass().add("text-muted");
        kindNote.textProperty().bind(model.kindListNoteProperty());
        TextField typedKind = new TextField();
        typedKind.setId("typedKind");
        typedKind.setPromptText("Kind name");
        Button openKind = new Button("Open");
        openKind.setId("openTypedKind");
        openKind.setOnAction(e -> model.openTypedKind(typedKind.getText()));
        typedKind.setOnAction(e -> model.openTypedKind(typedKind.getText()));
        HBox.setHgrow(typedKind, Priority.ALWAYS);
        HBox typeKind = new HBox(6, typedKind, openKind);
        for (Node node : List.of(kindNote, typeKind)) {
            node.visibleProperty().bind(model.kindListNoteProperty().isNotEmpty());
            node.managedProperty().bind(node.visibleProperty());
        }

        Label hint = new Label();
        hint.setId("firstStartHint");
        hint.setWrapText(true);
        hint.getStyleClass().add("text-muted");
        hint.textProperty().bind(model.firstStartHint());
        hint.managedProperty().bind(hint.textProperty().isNotEmpty());

        ListView<PropertyInfo> properties = new ListView<>(model.properties());
        properties.setId("propertyList");
        properties.setPrefHeight(150);
        properties.setMinHeight(110);
        Label noProperties = new Label();
        noProperties.setId("propertiesPlaceholder");
        noProperties.setWrapText(true);
        // "Select a kind" only while none is: a kind selected whose entities list no property says so
        noProperties.textProperty().bind(Bindings.when(model.selectedKindProperty().isNull()).then("Select a kind")
                .otherwise("No properties listed for this kind"));
        properties.setPlaceholder(noProperties);
        properties.setCellFactory(list -> new ListCell<>() {
            @Override
            protected void updateItem(PropertyInfo item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.name() + "  ·  " + String.join(", ", item.types()));
            }
        });

        VBox box = new VBox(8, header("Connection"), new HBox(6, choice, add, darkTheme), connect, hint,
                header("Namespace"), namespace, header("Kinds"), kinds, kindNote, typeKind, header("Properties"), properties);
        box.setPadding(new Insets(10));
        box.setPrefWidth(300);
        box.setMinWidth(200);
        return box;
    }

    /** The list cell {@code node} is in, or null. */
    private static ListCell<?> cellOf(Node node) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (at instanceof ListCell<?> cell) {
                return cell;
            }
        }
        return null;
    }

    private static Label header(String text) {
        Label label = new Label(text);
        label.getStyleClass().add("title-4");
        return label;
    }

    /**
     * The connection, what is going on, and while a task runs its progress and Cancel: one line, every text on one
     * baseline (ControlsFX's status bar set its own text lower than the connection's, over a progress bar cut off at
     * the window's bottom).
     */
    private HBox statusBar() {
        Label connection = new Label();
        connection.setId("connectionStatus");
        connection.textProperty().bind(model.status().connectionProperty());
        connection.setMinWidth(Region.USE_PREF_SIZE);
        Label message = new Label();
        message.setId("statusMessage");
        message.textProperty().bind(model.status().messageProperty());
        message.setMinWidth(0);
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        ProgressBar progress = new ProgressBar();
        progress.setId("statusProgress");
        progress.progressProperty().bind(model.status().progressProperty());
        progress.visibleProperty().bind(model.status().busyProperty());
        progress.managedProperty().bind(progress.visibleProperty());
        Button cancel = new Button("Cancel", new FontIcon(Material2AL.CANCEL));
        cancel.setId("cancelTask");
        cancel.getStyleClass().add(Styles.SMALL);
        // the Cancel button keeps its place when hidden: the bar is as tall busy as idle, so the tabs above do not
        // shrink while a task shows its progress (a Run tab laid out to the pixel lost its last line to it)
        cancel.visibleProperty().bind(model.status().busyProperty());
        cancel.setOnAction(e -> model.status().cancel());
        HBox bar = new HBox(16, connection, message, gap, progress, cancel);
        bar.setId("statusBar");
        bar.getStyleClass().add("status-line");
        bar.setAlignment(Pos.BASELINE_LEFT);
        bar.setPadding(new Insets(4, 12, 4, 8));
        return bar;
    }
}
