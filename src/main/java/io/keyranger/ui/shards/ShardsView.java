package io.keyranger.ui.shards;

import atlantafx.base.theme.Styles;
import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyFormat;
import io.keyranger.sharding.PlannedRange;
import io.keyranger.sharding.ShardPlan;
import io.keyranger.sharding.ShardPreview;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** The Shards tab: inputs, the scatter plan's ranges, and a bar chart of both plans' range sizes. */
public final class ShardsView extends BorderPane {
    private final ShardsViewModel model;
    private final BarChart<String, Number> chart = new BarChart<>(new CategoryAxis(), new NumberAxis());
    private final PlanMap map = new PlanMap();

    public ShardsView(ShardsViewModel model) {
        this.model = model;
        setTop(controls());
        SplitPane split = new SplitPane(table(), new VBox(6, map, chart));
        VBox.setVgrow(chart, Priority.ALWAYS);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.7); // the table shows 16 planned ranges on a laptop window, the chart below
        setCenter(split);
        setBottom(footer());
        chart.setId("shardChart");
        chart.setMinHeight(140); // the chart gives way to the table, so the split's divider holds
        chart.setAnimated(false);
        chart.setCategoryGap(4);
        // the legend beside the bars, not under them: JavaFX hides a legend at the top or bottom that leaves the
        // plot under 150 px, and the chart is about 180 px tall in a 1278x775 window
        chart.setLegendSide(Side.RIGHT);
        chart.setBarGap(1);
        chart.getXAxis().setLabel("range");
        chart.getYAxis().setLabel("entities");
        model.previewProperty().addListener((obs, old, preview) -> {
            redraw(preview);
            map.show(preview);
        });
    }

    private HBox controls() {
        Spinner<Integer> shards = new Spinner<>(1, 4096, model.shardsProperty().get());
        shards.setId("shardCount");
        shards.setEditable(true);
        shards.setPrefWidth(100);
        shards.valueProperty().addListener((obs, old, value) -> model.shardsProperty().set(value));
        Spinner<Integer> oversample = new Spinner<>(1, 1000, model.oversampleProperty().get());
        oversample.setId("oversample");
        oversample.setEditable(true);
        oversample.setPrefWidth(100);
        oversample.valueProperty().addListener((obs, old, value) -> model.oversampleProperty().set(value));
        Button plan = new Button("Plan", new FontIcon(Material2MZ.PLAY_ARROW));
        plan.setId("planShards");
        plan.getStyleClass().add("accent");
        plan.disableProperty().bind(model.busyProperty().or(model.targetProperty().isNull()));
        plan.setOnAction(e -> model.plan());
        Button exact = new Button("Count exactly", new FontIcon(Material2AL.CALCULATE));
        exact.setId("countExactly");
        exact.disableProperty().bind(model.busyProperty().or(model.previewProperty().isNull()));
        exact.setOnAction(e -> model.countExactly());
        Button cancel = new Button("Cancel", new FontIcon(Material2AL.CANCEL));
        cancel.setId("cancelShards");
        cancel.disableProperty().bind(model.busyProperty().not());
        cancel.setOnAction(e -> model.cancel());
        HBox bar = new HBox(8, new Label("Shards"), shards, new Label("Oversample"), oversample, plan, exact, cancel);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        return bar;
    }

    private TableView<PlannedRange> table() {
        TableView<PlannedRange> table = new TableView<>(model.rows());
        table.setId("shardTable");
        table.getStyleClass().add(Styles.DENSE); // sixteen ranges in view on a laptop window
        table.setPlaceholder(new Label("No plan yet"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<PlannedRange, Number> index = new TableColumn<>("#");
        index.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().index()));
        index.setMaxWidth(60);
        TableColumn<PlannedRange, String> start = new TableColumn<>("Start");
        start.setCellValueFactory(c -> new ReadOnlyStringWrapper(bound(c.getValue().range().start(), "(first key)")));
        TableColumn<PlannedRange, String> end = new TableColumn<>("End");
        end.setCellValueFactory(c -> new ReadOnlyStringWrapper(bound(c.getValue().range().end(), "(last key)")));
        TableColumn<PlannedRange, String> estimated = new TableColumn<>("Estimated");
        estimated.setCellValueFactory(c -> new ReadOnlyStringWrapper(String.format("%,d", c.getValue().estimated())));
        TableColumn<PlannedRange, String> exact = new TableColumn<>("Exact");
        exact.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                c.getValue().exact() == null ? "" : String.format("%,d", c.getValue().exact())));
        table.getColumns().addAll(List.of(index, start, end, estimated, exact));
        return table;
    }

    private VBox footer() {
        Label balance = new Label();
        balance.setId("shardBalance");
        balance.textProperty().bind(model.balanceProperty());
        Label summary = new Label();
        summary.setId("shardSummary");
        summary.setWrapText(true);
        summary.textProperty().bind(model.summaryProperty());
        VBox box = new VBox(4, summary, balance);
        box.setPadding(new Insets(6, 8, 6, 8));
        return box;
    }

    private void redraw(ShardPreview preview) {
        chart.getData().clear();
        if (preview != null) {
            chart.getData().add(series(preview.scatter()));
            chart.getData().add(series(preview.lexicographic()));
        }
    }

    private static XYChart.Series<String, Number> series(ShardPlan plan) {
        XYChart.Series<String, Number> series = new XYChart.Series<>();
        series.setName(ShardsViewModel.seriesName(plan));
        for (PlannedRange range : plan.ranges()) {
            series.getData().add(new XYChart.Data<>(String.valueOf(range.index()), range.size()));
        }
        return series;
    }

    private static String bound(Key key, String open) {
        return key == null ? open : KeyFormat.format(key);
    }
}
