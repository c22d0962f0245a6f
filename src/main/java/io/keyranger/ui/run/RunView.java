package io.keyranger.ui.run;

import atlantafx.base.theme.Styles;
import atlantafx.base.theme.Tweaks;
import io.keyranger.mapper.Mappers;
import java.util.List;
import java.util.Map;
import javafx.beans.InvalidationListener;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2MZ;

/** The Run tab: job settings and controls, the live split tree, totals, throughput and past jobs. */
public final class RunView extends BorderPane {
    private static final String HISTOGRAM_BARS = "keyranger.histogramBars";
    /** The least height of a chart in the side panel: its line and axes still read; the window at 1278x775 fits. */
    private static final double CHART_MIN = 100;
    /** Lines of totals always in sight: a restore's seven at least; a count-by's many values scroll past them. */
    private static final int TOTALS_SHOWN = 8;
    private final RunViewModel model;
    private final SplitPane work;
    private final SplitPane split;
    private final JobSettingsBar settings;

    public RunView(RunViewModel model) {
        this.model = model;
        setId("runView");
        settings = new JobSettingsBar(model);
        setTop(new VBox(controls(), mapperProblem(), settings));
        RangeTreeTable table = new RangeTreeTable(model.roots(), model.status().pausedProperty());
        // an empty tree says what the tab shows: no job yet, the job handed over (not started), or a job with no ranges
        Label noRanges = new Label();
        noRanges.setWrapText(true);
        noRanges.textProperty().bind(model.status().emptyTreeProperty());
        table.setPlaceholder(noRanges);
        KeySpaceMap map = new KeySpaceMap(model.roots());
        model.treeVersionProperty().addListener((obs, old, now) -> map.requestRedraw());
        map.setOnSelect(table::select);
        table.getSelectionModel().selectedItemProperty().addListener((obs, old, item) ->
                map.highlight(item == null ? null : item.getValue()));
        work = new SplitPane(map, table);
        work.setOrientation(Orientation.VERTICAL);
        split = new SplitPane(work, sidePanel());
        resetDividers();
        setCenter(split);
        Label summary = new Label();
        summary.setId("runSummary");
        summary.setWrapText(true);
        summary.textProperty().bind(model.status().summaryProperty());
        Label problems = new Label();
        problems.setId("jobProblems");
        problems.setWrapText(true);
        problems.getStyleClass().add("monospace");
        problems.textProperty().bind(model.status().problemsProperty());
        problems.visibleProperty().bind(model.status().problemsProperty().isNotEmpty());
        problems.managedProperty().bind(problems.visibleProperty());
        VBox bottom = new VBox(4, summary, problems);
        bottom.setPadding(new Insets(6, 8, 6, 8));
        setBottom(bottom);
    }

    /** Under the mapper: what its template refuses in it (a required parameter missing), while Start stays off. */
    private Label mapperProblem() {
        Label problem = new Label();
        problem.setId("mapperProblem");
        problem.setWrapText(true);
        problem.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.DANGER);
        problem.setPadding(new Insets(0, 8, 0, 8));
        problem.textProperty().bind(model.form().mapperProblem());
        problem.visibleProperty().bind(problem.textProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        return problem;
    }

    private HBox controls() {
        ComboBox<String> template = new ComboBox<>();
        template.getItems().setAll(Mappers.names());
        template.setId("mapperTemplate");
        template.setPromptText("template");
        template.valueProperty().addListener((obs, old, name) -> {
            if (name != null && !name.equals(model.form().templateName().getValue())) {
                model.form().chooseTemplate(name);
            }
        });
        // while a job runs here the summary beside it names it (a revert is not the template chosen before it);
        // otherwise the template shows the form's, the loaded spec's too (a restore's "import", say), and choosing it
        // again keeps the spec
        InvalidationListener shown = obs -> {
            String name = model.form().templateName().getValue();
            template.setValue(model.status().isRunning() || !template.getItems().contains(name) ? null : name);
        };
        model.status().runningProperty().addListener(shown);
        model.form().templateName().addListener(shown);
        shown.invalidated(null);
        // the mapper as its template and parameters; its JSON one click away
        Label summary = new Label();
        summary.setId("mapperSummary");
        summary.textProperty().bind(model.toolbarMapper()); // the job running here, else the form's
        summary.setMaxWidth(Double.MAX_VALUE);
        // a restore's or an export's spec names a file: its words wrap onto a second line rather than push the
        // buttons down to "▶ …" or shorten themselves to nothing
        summary.setWrapText(true);
        summary.setMinWidth(0);
        summary.setTooltip(new Tooltip());
        summary.getTooltip().textProperty().bind(summary.textProperty());
        HBox.setHgrow(summary, Priority.ALWAYS);
        TextField json = new TextField();
        json.setId("mapperJson");
        json.getStyleClass().add("monospace");
        json.textProperty().bindBidirectional(model.form().mapperJsonProperty());
        HBox.setHgrow(json, Priority.ALWAYS);
        ToggleButton showJson = new ToggleButton("JSON");
        showJson.setId("showMapperJson");
        json.visibleProperty().bind(showJson.selectedProperty());
        json.managedProperty().bind(json.visibleProperty());
        summary.visibleProperty().bind(showJson.selectedProperty().not());
        summary.managedProperty().bind(summary.visibleProperty());
        Button start = new Button("Start", new FontIcon(Material2MZ.PLAY_ARROW));
        start.setId("startJob");
        start.getStyleClass().add("accent");
        start.disableProperty().bind(model.status().runningProperty().or(model.targetProperty().isNull())
                .or(settings.invalidProperty()).or(model.form().mapperInvalid()));
        start.setOnAction(e -> {
            switch (JobGuard.check(getScene().getWindow(), model.targetProperty().get(), model.startPrice().consent(),
                    List.copyOf(model.form().kinds()))) {
                case RUN -> model.start();
                case EXPORT_FIRST -> model.startBackedUp();
                default -> { }
            }
        });
        Button pause = new Button();
        pause.setId("pauseJob");
        pause.textProperty().bind(Bindings.when(model.status().pausedProperty()).then("Resume")
                .otherwise("Pause"));
        FontIcon pauseIcon = new FontIcon(Material2MZ.PAUSE);
        pauseIcon.iconCodeProperty().bind(Bindings.when(model.status().pausedProperty())
                .<Ikon>then(Material2MZ.PLAY_ARROW).otherwise(Material2MZ.PAUSE));
        pause.setGraphic(pauseIcon);
        // a job being cancelled has nothing left to pause or cancel: it ends once its commits under way end
        BooleanBinding stoppable = model.status().runningProperty().and(model.status().cancellingProperty().not());
        pause.disableProperty().bind(stoppable.not());
        pause.setOnAction(e -> {
            if (model.status().pausedProperty().get()) {
                model.resumePaused();
            } else {
                model.pause();
            }
        });
        Button cancel = new Button("Cancel", new FontIcon(Material2MZ.STOP));
        cancel.setId("cancelJob");
        cancel.disableProperty().bind(stoppable.not());
        cancel.setOnAction(e -> model.cancel());
        Label title = new Label("Mapper");
        for (Region fixed : List.of(title, template, showJson, start, pause, cancel)) {
            fixed.setMinWidth(Region.USE_PREF_SIZE);
        }
        HBox bar = new HBox(8, title, template, summary, json, showJson, start, pause, cancel);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 2, 8));
        return bar;
    }

    /**
     * count-by's counters ("by:VALUE") as a histogram; hidden for other mappers. Totals arrive ten times a second, so
     * the chart is rebuilt only when its bars change: a new series per tick, even hidden, costs a chart layout.
     */
    private static void showHistogram(BarChart<String, Number> chart, Map<String, Long> totals) {
        List<Map.Entry<String, Long>> bars = totals.entrySet().stream()
                .filter(e -> Mappers.countByBucket(e.getKey()) != null)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(30)
                .map(e -> Map.entry(Mappers.countByBucket(e.getKey()), e.getValue())).toList();
        if (bars.equals(chart.getProperties().get(HISTOGRAM_BARS))) {
            return;
        }
        chart.getProperties().put(HISTOGRAM_BARS, bars);
        XYChart.Series<String, Number> series = new XYChart.Series<>();
        bars.forEach(bar -> series.getData().add(new XYChart.Data<>(bar.getKey(), bar.getValue())));
        chart.setVisible(!bars.isEmpty());
        chart.getData().setAll(List.of(series));
    }

    /**
     * Puts the dividers where a new tab has them: the map above a third of the tree, the job's side panel on the
     * right. The start-up warm-up calls it after laying the hidden tab out at whatever size it had then.
     */
    void resetDividers() {
        work.setDividerPositions(0.34);
        split.setDividerPositions(0.62);
    }

    private static Region spacer() {
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        return spacer;
    }

    RunViewModel model() {
        return model;
    }

    private VBox sidePanel() {
        Label totals = new Label();
        totals.setId("jobTotals");
        // one count to a word and its number: the panel is never narrower than the longest line of counts, which
        // never wraps ("deleted" / "0")
        totals.setMinWidth(Region.USE_PREF_SIZE);
        totals.textProperty().bind(model.status().totalsTextProperty());
        // the job's own counters below the five every job has (a restore's four, a count-by's values): all of them
        // while the panel has room, else the first lines and a scroll bar, never over the chart below
        ScrollPane totalsPane = new ScrollPane(totals) {
            // as high as the label's lines (the skin's height, measured as the pane is laid out: a height bound to
            // the label's lagged a layout behind a new line); at least the first lines, a count-by's many values
            // scrolling past them
            @Override
            protected double computeMinHeight(double width) {
                long lines = Math.max(1, totals.getText().lines().count());
                return computePrefHeight(width) * Math.min(1, TOTALS_SHOWN / (double) lines);
            }
        };
        totalsPane.setId("jobTotalsPane");
        totalsPane.getStyleClass().addAll(Tweaks.EDGE_TO_EDGE, "job-totals");
        totalsPane.setFitToWidth(true);
        totalsPane.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        totalsPane.setMaxHeight(Region.USE_PREF_SIZE);
        Label timing = new Label();
        timing.setId("jobTiming");
        timing.textProperty().bind(model.status().timingTextProperty());

        NumberAxis x = new NumberAxis(0, 10, 1);
        x.setLabel("seconds");
        x.setAutoRanging(false); // round seconds, at most ten ticks: labels never run together (ThroughputMeter.axis)
        x.setMinorTickVisible(false);
        x.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number seconds) {
                return String.format("%.0f", seconds.doubleValue());
            }

            @Override
            public Number fromString(String text) {
                return Double.valueOf(text);
            }
        });
        NumberAxis y = new NumberAxis();
        LineChart<Number, Number> chart = new LineChart<>(x, y);
        chart.setId("throughputChart");
        // the unit as a title across the top: written up the side it was cut to "en…" in a low chart
        chart.setTitle("entities / s");
        chart.getStyleClass().add("throughput-chart");
        chart.setAnimated(false);
        chart.setCreateSymbols(false);
        chart.setLegendVisible(false);
        chart.setPrefHeight(220);
        XYChart.Series<Number, Number> series = new XYChart.Series<>();
        chart.getData().add(series);
        // the series mirrors the points: a long job's last point changes in place, and all of them as its spans widen
        model.throughput().addListener((ListChangeListener<ThroughputPoint>) change -> {
            while (change.next()) {
                if (change.wasRemoved()) {
                    series.getData().remove(change.getFrom(), change.getFrom() + change.getRemovedSize());
                }
                if (change.wasAdded()) {
                    series.getData().addAll(change.getFrom(), change.getAddedSubList().stream()
                            .map(p -> new XYChart.Data<Number, Number>(p.seconds(), p.rate())).toList());
                }
            }
            double[] axis = ThroughputMeter.axis(change.getList().isEmpty() ? 0
                    : change.getList().get(change.getList().size() - 1).seconds());
            x.setUpperBound(axis[0]);
            x.setTickUnit(axis[1]);
        });

        BarChart<String, Number> histogram = new BarChart<>(
                new CategoryAxis(), new NumberAxis());
        histogram.setId("countByChart");
        histogram.setAnimated(false);
        histogram.setLegendVisible(false);
        histogram.setPrefHeight(200);
        histogram.managedProperty().bind(histogram.visibleProperty());
        histogram.setVisible(false);
        model.status().totalsProperty().addListener((obs, old, now) -> showHistogram(histogram, now));

        // the charts take what the totals and the Jobs list leave: a count-by's values first (its answer), then the
        // throughput; one chart at least in sight, the other a scroll away when the panel is low
        chart.setMinHeight(CHART_MIN);
        histogram.setMinHeight(CHART_MIN);
        VBox.setVgrow(chart, Priority.ALWAYS);
        VBox.setVgrow(histogram, Priority.ALWAYS);
        VBox charts = new VBox(4, histogram, chart);
        ScrollPane chartsPane = new ScrollPane(charts);
        chartsPane.setId("jobCharts");
        chartsPane.getStyleClass().add(Tweaks.EDGE_TO_EDGE);
        chartsPane.setFitToWidth(true);
        chartsPane.setFitToHeight(true);
        chartsPane.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        chartsPane.setMinHeight(CHART_MIN);
        chartsPane.setPrefHeight(220);
        JobListPane jobs = new JobListPane(model);
        VBox box = new VBox(4, totalsPane, timing, chartsPane, jobs);
        box.setPadding(new Insets(6, 8, 6, 8));
        VBox.setVgrow(chartsPane, Priority.ALWAYS);
        VBox.setVgrow(jobs, Priority.SOMETIMES);
        return box;
    }
}
