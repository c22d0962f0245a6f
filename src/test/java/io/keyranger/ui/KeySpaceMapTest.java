package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.demo.DemoRequest;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.sharding.ShardPreview;
import io.keyranger.support.Fx;
import io.keyranger.ui.kinds.KindItem;
import io.keyranger.ui.run.KeySpaceMap;
import io.keyranger.ui.run.NodeRow;
import io.keyranger.ui.run.RunViewModel;
import io.keyranger.ui.run.ThroughputPoint;
import io.keyranger.ui.shards.PlanMap;
import io.keyranger.ui.shards.ShardsViewModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import javafx.application.Application;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.testfx.util.WaitForAsyncUtils;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/** The Run tab's key-space map, driven in the real window on the demo's real emulator. */
class KeySpaceMapTest {
    private static Path config;
    private static Application app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void launchInDemoMode() throws Exception {
        config = Files.createTempDirectory("keyranger-map");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                new StartupRequest(null, new DemoRequest(300, 0, null), null)));
        // the shared primary stage at a laptop's size, whatever an earlier test class left it at
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
            return null;
        });
        ListView<KindItem> kinds = new FxRobot().lookup("#kindList").queryListView();
        Fx.waitUntil(120, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")));
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    @Test
    void theMapDrawsOneBandPerRangeInItsStatusColourAndAClickSelectsItInTheTree() {
        selectKind("Account");
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            robot.lookup("#jobPageSize").<Spinner<Integer>>query().getValueFactory().setValue(20);
            robot.lookup("#jobShards").<Spinner<Integer>>query().getValueFactory().setValue(4);
            robot.lookup("#jobWorkers").<Spinner<Integer>>query().getValueFactory().setValue(4);
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(90, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        KeySpaceMap map = robot.lookup("#keySpaceMap").query();
        TreeTableView<NodeRow> tree = robot.lookup("#rangeTree").query();
        List<NodeRow> rows = Fx.get(() -> all(tree.getRoot()));
        assertThat(rows).as("the job split").hasSizeGreaterThan(4);
        // the map draws at most four times a second: its last drawing may come a moment after the summary
        Fx.waitUntil(5, () -> map.drawn().stream().filter(b -> b.row() != null).count() == rows.size()
                && map.drawn().stream().filter(b -> b.row() != null).allMatch(b -> b.row().status().isFinal()
                && !b.fill().toString().equals("0x0969daff")));
        List<KeySpaceMap.Drawn> bands = Fx.get(map::drawn);
        assertThat(bands.stream().filter(b -> b.row() == null)).as("the job's own band").hasSize(1);
        assertThat(bands.stream().filter(b -> b.row() != null).map(KeySpaceMap.Drawn::row).toList())
                .as("one band per range").containsExactlyInAnyOrderElementsOf(rows);
        for (KeySpaceMap.Drawn band : bands) {
            if (band.row() != null) {
                NodeStatus status = band.row().status();
                assertThat(band.fill().toString()).as(band.row().id()).isEqualTo(
                        (status == NodeStatus.DONE ? "0x1a7f37ff" : status == NodeStatus.SPLIT ? "0x8250dfff" : "?"));
            }
        }
        double total = bands.stream().filter(b -> b.row() != null && b.row().snapshot().parentId() == null)
                .mapToDouble(KeySpaceMap.Drawn::width).sum();
        assertThat(total).as("the planned ranges span the job's band").isCloseTo(
                bands.stream().filter(b -> b.row() == null).findFirst().orElseThrow().width(),
                Offset.offset(1.0));

        KeySpaceMap.Drawn deep = bands.stream().filter(b -> b.row() != null && b.row().snapshot().depth() > 0)
                .max(Comparator.comparingDouble(KeySpaceMap.Drawn::width)).orElseThrow();
        Point2D onScreen = Fx.get(() -> map.localToScreen(deep.x() + deep.width() / 2, deep.y() + deep.height() / 2));
        robot.clickOn(onScreen);
        Fx.waitUntil(5, () -> tree.getSelectionModel().getSelectedItem() != null
                && tree.getSelectionModel().getSelectedItem().getValue() == deep.row());
        assertThat(Fx.get(map::highlighted)).isSameAs(deep.row());

        NodeRow other = rows.stream().filter(r -> r != deep.row()).findFirst().orElseThrow();
        Fx.get(() -> {
            tree.getSelectionModel().select(find(tree.getRoot(), other));
            return null;
        });
        assertThat(Fx.get(map::highlighted)).as("a selection in the table shows on the map").isSameAs(other);
    }

    @Test
    void aJobFinishedFromTheCommandLineCanBeInspectedWithItsMap() {
        String host = Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText())
                .replaceAll("^emulator (\\S+) / .*$", "$1");
        Path spec = config.resolve("count.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(config, Map.of(), r -> { }),
                new PrintWriter(out), new PrintWriter(err), "run", "--kind", "Event", "--mapper", write(spec),
                "--job-id", "from-the-cli", "--page-size", "50", "--emulator-host", host, "--project", "demo-project");
        assertThat(code).as(err.toString()).isZero();
        selectKind("Event");
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#refreshJobs").queryButton().fire();
            return null;
        });
        ListView<?> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.toString().contains("from-the-cli")
                || ((ListedJob) j).spec().jobId().equals("from-the-cli")));
        Fx.get(() -> {
            Object job = jobs.getItems().stream().filter(j -> ((ListedJob) j)
                    .spec().jobId().equals("from-the-cli")).findFirst().orElseThrow();
            ((ListView<Object>) (ListView<?>) jobs).getSelectionModel().select(job);
            return null;
        });
        Fx.waitUntil(10, () -> !robot.lookup("#inspectJob").queryButton().isDisabled());
        Fx.get(() -> {
            robot.lookup("#inspectJob").queryButton().fire(); // below the fold on a small screen
            return null;
        });
        try {
            Fx.waitUntil(30, () -> robot.lookup("#runSummary").queryLabeled().getText()
                    .startsWith("Job from-the-cli (stored, done)"));
        } catch (AssertionError e) {
            throw new AssertionError("summary: " + Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText()), e);
        }
        KeySpaceMap map = robot.lookup("#keySpaceMap").query();
        TreeTableView<NodeRow> tree = robot.lookup("#rangeTree").query();
        Fx.waitUntil(10, () -> !map.drawn().isEmpty());
        List<NodeRow> rows = Fx.get(() -> all(tree.getRoot()));
        assertThat(rows).isNotEmpty().allSatisfy(r -> assertThat(r.status().isFinal()).isTrue());
        assertThat(Fx.get(map::drawn).stream().filter(b -> b.row() != null).map(KeySpaceMap.Drawn::row).toList())
                .containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void aJobRunHereInspectedAfterItEndedShowsTheTreeAndChartItEndedWith() {
        // before, Inspect showed the job's stored cells, all at depth 0, beside a summary of its ranges, and a chart
        // drawn again from the cells' records whose peak was not the live one's
        selectKind("Account");
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            robot.lookup("#jobPageSize").<Spinner<Integer>>query().getValueFactory().setValue(10);
            robot.lookup("#jobShards").<Spinner<Integer>>query().getValueFactory().setValue(2);
            robot.lookup("#jobWorkers").<Spinner<Integer>>query().getValueFactory().setValue(4);
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(90, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        String summary = Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText());
        String jobId = summary.replaceAll("(?s)^Job (\\S+) done:.*$", "$1");
        TreeTableView<NodeRow> tree = robot.lookup("#rangeTree").query();
        Fx.waitUntil(5, () -> all(tree.getRoot()).stream().allMatch(r -> r.status().isFinal()));
        List<String> live = Fx.get(() -> all(tree.getRoot()).stream().map(KeySpaceMapTest::described).sorted()
                .toList());
        int depth = Fx.get(() -> all(tree.getRoot()).stream().mapToInt(r -> r.snapshot().depth()).max().orElse(-1));
        assertThat(depth).as("the job split: " + live).isPositive();
        RunViewModel run = ((KeyRangerApp) app).model().run();
        List<ThroughputPoint> chart = Fx.get(() -> List.copyOf(run.throughput()));
        assertThat(chart).as("the live chart").isNotEmpty();
        double drawn = 0;
        double before = 0;
        for (ThroughputPoint p : chart) {
            drawn += p.rate() * (p.seconds() - before);
            before = p.seconds();
        }
        double read = Fx.get(() -> all(tree.getRoot()).stream().filter(r -> r.snapshot().parentId() == null)
                .mapToLong(r -> r.snapshot().subtreeEntities()).sum());
        assertThat(read).as("the kind was read").isPositive();
        assertThat(drawn).as("the chart's entities are those read").isCloseTo(read, Offset.offset(0.5));

        Fx.get(() -> {
            robot.lookup("#refreshJobs").queryButton().fire();
            return null;
        });
        ListView<?> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> ((ListedJob) j).spec().jobId().equals(jobId)));
        Fx.get(() -> {
            Object job = jobs.getItems().stream().filter(j -> ((ListedJob) j).spec().jobId().equals(jobId))
                    .findFirst().orElseThrow();
            ((ListView<Object>) (ListView<?>) jobs).getSelectionModel().select(job);
            return null;
        });
        Fx.waitUntil(10, () -> !robot.lookup("#inspectJob").queryButton().isDisabled());
        Fx.get(() -> {
            robot.lookup("#inspectJob").queryButton().fire();
            return null;
        });
        Fx.waitUntil(30, () -> robot.lookup("#runSummary").queryLabeled().getText()
                .startsWith("Job " + jobId + " (stored, done)"));
        List<String> inspected = Fx.get(() -> all(tree.getRoot()).stream().map(KeySpaceMapTest::described).sorted()
                .toList());
        assertThat(inspected).as("the tree the run ended with").isEqualTo(live);
        assertThat(Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText()))
                .contains(live.size() + " ranges, depth " + depth + ", ");
        assertThat(Fx.get(() -> List.copyOf(run.throughput()))).as("the chart the run drew live").isEqualTo(chart);
    }

    /** A row as the tree shows it: which range, how deep, where it ended, what it counted. */
    private static String described(NodeRow row) {
        NodeSnapshot n = row.snapshot();
        return n.id() + " parent " + n.parentId() + " depth " + n.depth() + " " + n.status() + " " + n.entities() + "/"
                + n.subtreeEntities();
    }

    @Test
    void theShardsTabMapsBothPlansWithWidthsFromTheirSizes() {
        selectKind("Account");
        clickTab("Shards");
        robot.clickOn("#planShards");
        PlanMap map = robot.lookup("#planMap").query();
        Fx.waitUntil(60, () -> !map.drawn().isEmpty());
        List<PlanMap.Drawn> drawn = Fx.get(map::drawn);
        double width = Fx.get(map::getWidth);
        for (String plan : List.of("scatter", "lexicographic")) {
            List<PlanMap.Drawn> bands = drawn.stream().filter(d -> d.plan().equals(plan)).toList();
            assertThat(bands).as(plan).hasSizeGreaterThan(1);
            assertThat(bands.stream().mapToDouble(PlanMap.Drawn::width).sum())
                    .isCloseTo(width, Offset.offset(1.0));
            long total = bands.stream().mapToLong(d -> d.range().estimated()).sum();
            for (PlanMap.Drawn d : bands) {
                assertThat(d.width()).as(plan + " range " + d.range().index())
                        .isCloseTo(width * d.range().estimated() / total, Offset.offset(0.5));
            }
        }
        // the chart beside it: a series of bars per plan, named for how the plan was made
        // (ui.shards.ShardsViewModelTest checks the plans, their names and their exact counts)
        ShardPreview preview = Fx.get(() -> ((KeyRangerApp) app).model().shards().previewProperty().get());
        BarChart<?, ?> chart = robot.lookup("#shardChart").query();
        assertThat(Fx.get(() -> chart.getData().stream().map(XYChart.Series::getName).toList()))
                .containsExactly(ShardsViewModel.seriesName(preview.scatter()),
                        ShardsViewModel.seriesName(preview.lexicographic()));
        assertThat(Fx.get(() -> chart.getData().get(0).getData().size())).isEqualTo(preview.scatter().ranges().size());
        assertThat(Fx.get(() -> robot.lookup("#shardChart .chart-bar").queryAll().size())).isGreaterThanOrEqualTo(5);
        // a legend says what the bars are: each series' name, shown inside the chart at the default window's size
        Stage stage = (Stage) Fx.get(() -> chart.getScene().getWindow());
        Fx.get(() -> {
            stage.setWidth(1278);
            stage.setHeight(775);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        Fx.waitUntil(10, () -> robot.lookup("#shardChart .chart-legend-item").queryAll().size() == 2);
        assertThat(Fx.get(() -> robot.lookup("#shardChart .chart-legend-item").queryAll().stream()
                .filter(item -> shown(item, chart) && item.getLayoutBounds().getHeight() > 0
                        && chart.localToScene(chart.getLayoutBounds()).contains(
                        item.localToScene(item.getLayoutBounds())))
                .map(item -> ((Labeled) item).getText()).toList()))
                .containsExactly(ShardsViewModel.seriesName(preview.scatter()),
                        ShardsViewModel.seriesName(preview.lexicographic()));
        // and still at the chart's least height (the table's divider pulled down): under Xvfb's fonts the chart at
        // 1278x775 is about 180 px tall, where JavaFX hid a legend under the bars (it leaves the plot 150 px or none)
        SplitPane split = (SplitPane) Fx.get(() -> {
            Node node = chart;
            while (!(node instanceof SplitPane)) {
                node = node.getParent();
            }
            return node;
        });
        Fx.get(() -> {
            split.setDividerPositions(1.0);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        Fx.waitUntil(10, () -> chart.getHeight() <= chart.getMinHeight() + 1);
        assertThat(Fx.get(() -> robot.lookup("#shardChart .chart-legend-item").queryAll().stream()
                .filter(item -> shown(item, chart) && item.getLayoutBounds().getHeight() > 0
                        && chart.localToScene(chart.getLayoutBounds()).contains(
                        item.localToScene(item.getLayoutBounds())))
                .map(item -> ((Labeled) item).getText()).toList()))
                .as("the legend at the chart's least height, %s px", Fx.get(chart::getHeight))
                .containsExactly(ShardsViewModel.seriesName(preview.scatter()),
                        ShardsViewModel.seriesName(preview.lexicographic()));
    }

    /** Whether {@code node} and each of its parents up to {@code within} are visible (a hidden legend's labels are not). */
    private static boolean shown(Node node, Node within) {
        for (Node n = node; n != null && n != within; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static String write(Path file) {
        try {
            Files.writeString(file, "{\"template\": \"count\"}");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return file.toString();
    }

    private static List<NodeRow> all(TreeItem<NodeRow> item) {
        List<NodeRow> rows = new ArrayList<>();
        for (TreeItem<NodeRow> child : item.getChildren()) {
            rows.add(child.getValue());
            rows.addAll(all(child));
        }
        return rows;
    }

    private static TreeItem<NodeRow> find(TreeItem<NodeRow> item, NodeRow row) {
        if (item.getValue() == row) {
            return item;
        }
        for (TreeItem<NodeRow> child : item.getChildren()) {
            TreeItem<NodeRow> found = find(child, row);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private void selectKind(String kind) {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.get(() -> {
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals(kind)).findFirst()
                    .orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> Fx.get(() -> robot.lookup("#pageTitle").queryLabeled().getText()).startsWith(kind + ":"));
    }

    private void clickTab(String title) {
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && title.equals(((Labeled) n.lookup(".tab-label")).getText())).queryAs(Node.class));
    }
}
