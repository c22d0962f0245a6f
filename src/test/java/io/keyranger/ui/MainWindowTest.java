package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.demo.DemoRequest;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.ConcurrentRangeTracker;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyFormat;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.MapperExamplesMenu;
import io.keyranger.testhooks.GatedMapper;
import io.keyranger.mapper.Mappers;
import io.keyranger.support.Fx;
import io.keyranger.support.Jobs;
import io.keyranger.ui.kinds.KindItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.kordamp.ikonli.javafx.FontIcon;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Drives the real main window, in demo mode on a real emulator, headless through Monocle. The window is shared; each
 * test starts from the same state ({@link #accountSelectedAndNothingRunning()}), so they pass in any order.
 */
class MainWindowTest {
    private static final int ACCOUNTS = 120;
    private static Path config;
    private static Application app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void launchInDemoMode() throws Exception {
        config = Files.createTempDirectory("keyranger-ui");
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                new StartupRequest(null, new DemoRequest(ACCOUNTS, 0, null), null)));
        // the shared primary stage at a laptop's size, whatever an earlier test class left it at
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
            return null;
        });
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
    }

    /** No job running, Account selected afresh (page 1), the Run form at its defaults with a count. */
    @BeforeEach
    void accountSelectedAndNothingRunning() {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.waitUntil(120, () -> kinds.getItems().stream().anyMatch(k -> k.name().equals("Account")));
        Fx.waitUntil(60, () -> robot.lookup("#cancelJob").queryButton().isDisabled());
        Fx.get(() -> {
            kinds.getSelectionModel().clearSelection();
            kinds.getSelectionModel().select(kinds.getItems().stream().filter(k -> k.name().equals("Account"))
                    .findFirst().orElseThrow());
            return null;
        });
        Fx.waitUntil(30, () -> title().equals("Account: page 1, rows 1–50"));
        clickTab("Entities");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            robot.lookup("#jobShards").<Spinner<Integer>>query().getValueFactory().setValue(16);
            robot.lookup("#jobWorkers").<Spinner<Integer>>query().getValueFactory().setValue(8);
            robot.lookup("#jobPageSize").<Spinner<Integer>>query().getValueFactory().setValue(200);
            robot.lookup("#jobQps").<Spinner<Integer>>query().getValueFactory().setValue(0);
            return null;
        });
    }

    @Test
    void kindListShowsAccountWithItsCount() {
        ListView<KindItem> kinds = robot.lookup("#kindList").queryListView();
        Fx.waitUntil(90, () -> kinds.getItems().stream()
                .anyMatch(k -> k.name().equals("Account") && "120".equals(k.countText())));
        assertThat(Fx.get(() -> kinds.getItems().stream().map(KindItem::name).toList()))
                .containsExactly("Account", "Event", "Org");
        Fx.waitUntil(30, () -> kinds.getItems().stream().allMatch(k -> k.countProperty().get() != null));
        assertThat(Fx.get(() -> robot.lookup("#kindList .kind-count").queryAll().stream()
                .map(n -> ((Label) n).getText()).toList())).contains("120", "50", "5");
        Node status = robot.lookup("#statusBar").query();
        assertThat(Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText()))
                .startsWith("emulator 127.0.0.1:").endsWith("/ demo-project");
        assertThat(status).isNotNull();
    }

    @Test
    void selectingAKindFillsTheTableAndTheJsonPane() {
        ListCell<?> account = robot.lookup("#kindList .list-cell").match(node -> ((ListCell<?>) node).getItem() != null
                && ((KindItem) ((ListCell<?>) node).getItem()).name().equals("Account")).query();
        robot.clickOn(account);
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Fx.waitUntil(30, () -> table.getItems().size() == 50);
        assertThat(title()).isEqualTo("Account: page 1, rows 1–50");
        assertThat(Fx.get(() -> table.getColumns().stream().map(c -> c.getText()).toList()))
                .containsExactly("Key", "active", "balance", "createdAt", "tier");
        ListView<?> properties = robot.lookup("#propertyList").queryListView();
        Fx.waitUntil(30, () -> properties.getItems().size() == 4);
        Fx.waitUntil(10, () -> robot.lookup("#propertyList .list-cell").queryAll().stream()
                .map(n -> ((ListCell<?>) n).getText()).filter(t -> t != null).toList()
                .containsAll(List.of("active  ·  boolean", "balance  ·  integer")));
        assertThat(Fx.get(() -> properties.getItems().stream()
                .map(p -> ((PropertyInfo) p).name()).toList()))
                .containsExactly("active", "balance", "createdAt", "tier");
        Entity first = Fx.get(() -> table.getItems().get(0));
        assertThat(json()).contains(jsonKey(first.getKey())).contains("\"balance\"");
    }

    @Test
    void jsonPaneFollowsTheSelectedRow() {
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Entity fifth = Fx.get(() -> table.getItems().get(4));
        Fx.get(() -> {
            table.scrollTo(0);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn(robot.lookup("#entityTable .table-row-cell")
                .match(row -> ((TableRow<?>) row).getIndex() == 4).queryAs(Node.class));
        Fx.waitUntil(10, () -> json().contains(jsonKey(fifth.getKey())));
        assertThat(json()).contains("\"tier\" : \"" + fifth.getString("tier") + "\"");
    }

    @Test
    void runTabRunsACountJobAndShowsTheTreeAndTotals() {
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#jobShards").<Spinner<Integer>>query().getValueFactory().setValue(2);
            robot.lookup("#jobPageSize").<Spinner<Integer>>query().getValueFactory().setValue(15);
            robot.lookup("#jobWorkers").<Spinner<Integer>>query().getValueFactory().setValue(3);
            return null;
        });
        robot.clickOn("#startJob");
        TreeTableView<?> tree = robot.lookup("#rangeTree").query();
        Fx.waitUntil(60, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        assertThat(Fx.get(() -> robot.lookup("#jobTotals").queryLabeled().getText())).startsWith("read 120 ");
        assertThat(Fx.get(() -> tree.getRoot().getChildren().size())).isEqualTo(2);
        assertThat(Fx.get(() -> countItems(tree.getRoot()))).as("the tree fanned out").isGreaterThan(4);
        // every shown status icon is coloured by the app's stylesheet, not the theme's default icon colour
        List<String> iconColours = Fx.get(() -> robot.lookup("#rangeTree .tree-table-cell").queryAll().stream()
                .map(cell -> (Labeled) cell).filter(cell -> cell.getText() != null)
                .map(Labeled::getGraphic).filter(g -> g instanceof FontIcon).map(g -> (FontIcon) g)
                .map(icon -> icon.getStyleClass().stream().filter(c -> c.startsWith("status-")).findFirst()
                        .orElse("none") + "=" + icon.getIconColor()).distinct().toList());
        assertThat(iconColours).isNotEmpty()
                .allSatisfy(entry -> assertThat(entry).matches("status-(split=0x8250dfff|done=0x1a7f37ff)"));
        Fx.waitUntil(20, () -> robot.lookup("#pastJobs").queryListView().getItems().size() >= 1);
    }

    /** The form's checks and its dry run: {@code ui.mapper.MapperViewModelTest}; here the window runs the spec. */
    @Test
    void addFreeCreditFromTheMapperFormThenRun() {
        clickTab("Mapper");
        MapperExamplesMenu.choose(robot, "Add free credit");
        Fx.waitUntil(5, () -> "balance".equals(robot.lookup("#param-property").queryTextInputControl().getText()));
        assertThat(Fx.get(() -> robot.lookup("#param-amount").queryTextInputControl().getText())).isEqualTo("10");

        var datastore = demoDatastore();
        Map<Key, Long> before = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> before.put(e.getKey(), e.getLong("balance")));
        assertThat(before).hasSize(ACCOUNTS);

        robot.clickOn("#runNow");
        robot.clickOn("Run without export");
        Fx.waitUntil(90, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:")
                && robot.lookup("#jobTotals").queryLabeled().getText().contains("written 120"));
        assertThat(Fx.get(() -> robot.lookup("#jobTotals").queryLabeled().getText()))
                .contains("read 120").contains("written 120").contains("skipped 0");
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> assertThat(e.getLong("balance")).as("%s", e.getKey())
                        .isEqualTo(before.get(e.getKey()) + 10));
    }

    @Test
    void anInterruptedJobIsResumedFromTheJobList() throws Exception {
        var datastore = demoDatastore();
        var executor = new AdaptiveSplitExecutor(datastore,
                KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        Jobs job = Jobs.over("Account").id("interrupted-count").workers(1).pageSize(10);
        GatedMapper gate = new GatedMapper(Mappers.create(job.mapperSpec()), 3);
        JobHandle handle = executor.start(job.spec(), gate,
                JobListener.NONE);
        gate.awaitHeld();
        handle.cancel(); // interrupted at a page boundary once the held chunk goes on
        gate.release();
        assertThat(handle.await().total("read")).isBetween(1L, 119L);

        clickTab("Run");
        robot.clickOn("#refreshJobs");
        ListView<?> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.toString().contains("interrupted-count")));
        robot.clickOn(robot.lookup("#pastJobs .list-cell").match(n -> ((ListCell<?>) n).getText() != null
                && ((ListCell<?>) n).getText().endsWith("  ·  interrupted-count")).queryAs(Node.class));
        robot.clickOn("#resumeJob");
        Fx.waitUntil(60, () -> robot.lookup("#runSummary").queryLabeled().getText()
                .startsWith("Job interrupted-count done:"));
        assertThat(Fx.get(() -> robot.lookup("#jobTotals").queryLabeled().getText())).startsWith("read 120 ");
    }

    /** A job run elsewhere (as on Beam: a shared job with its cell ledgers) is followed live from the job list. */
    @Test
    void aJobRunningElsewhereIsFollowedUntilItEnds() throws Exception {
        var datastore = demoDatastore();
        var order = KeyOrder.EMULATOR;
        var spec = new JobSpec("followed-count", "", "Account",
                MapperSpec.parse("{\"template\": \"count\"}"), 2, 2, 10, 0);
        var job = PipelineJobs.createOrOpen(datastore, order, spec,
                PipelineJobs.BEAM, Cancellation.NEVER);
        clickTab("Run");
        robot.clickOn("#refreshJobs");
        ListView<?> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.toString().contains("followed-count")));
        robot.clickOn(robot.lookup("#pastJobs .list-cell").match(n -> ((ListCell<?>) n).getText() != null
                && ((ListCell<?>) n).getText().endsWith("  ·  followed-count")).queryAs(Node.class));
        robot.clickOn("#inspectJob");
        Fx.waitUntil(20, () -> robot.lookup("#runSummary").queryLabeled().getText()
                .contains("following: running elsewhere"));

        // the job runs "elsewhere": its ranges are processed here, off the FX thread, while the window follows
        var mapper = Mappers.create(spec.mapper());
        var processor = new PageLoop(new PageWork(datastore, spec, order, ServerLimits.EMULATOR, mapper, job.cells(),
                new CellCommitter(datastore, order, mapper, spec.jobId(), job.cells()),
                new Retries.Simple(5, 10, 100, 10_000)));
        for (var range : job.cells().startingRanges(2)) {
            processor.process(new ConcurrentRangeTracker(range, job.cells(), 10), o -> { });
        }
        Fx.waitUntil(20, () -> robot.lookup("#jobTotals").queryLabeled().getText().startsWith("read 120 "));
        assertThat(Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText())).contains("following");
        assertThat(job.finish(1)).isEqualTo(JobStatus.DONE);
        Fx.waitUntil(20, () -> robot.lookup("#runSummary").queryLabeled().getText()
                .startsWith("Job followed-count (stored, done): "));
    }

    private static int countItems(TreeItem<?> item) {
        int count = 0;
        for (TreeItem<?> child : item.getChildren()) {
            count += 1 + countItems(child);
        }
        return count;
    }

    @Test
    void countByShowsAHistogramOfTheValuesAndACountHidesIt() {
        clickTab("Run");
        BarChart<?, ?> histogram = robot.lookup("#countByChart").query();
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl()
                    .setText("{\"template\": \"count-by\", \"property\": \"tier\"}");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:"));
        Map<String, Long> bars = Fx.get(() -> histogram.getData().get(0).getData().stream().collect(
                Collectors.toMap(d -> String.valueOf(d.getXValue()), d -> ((Number) d.getYValue()).longValue())));
        assertThat(Fx.get(histogram::isVisible)).isTrue();
        assertThat(bars.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ACCOUNTS);
        assertThat(bars.keySet()).allSatisfy(tier -> assertThat(tier).isNotBlank());

        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> robot.lookup("#runSummary").queryLabeled().getText().contains(" done:")
                && robot.lookup("#jobTotals").queryLabeled().getText().startsWith("read " + ACCOUNTS + " "));
        assertThat(Fx.get(histogram::isVisible)).isFalse();
    }

    @Test
    void aJobRunningElsewhereIsRefusedThenTakenOverAfterConfirmation() throws Exception {
        var datastore = demoDatastore();
        var elsewhere = new AdaptiveSplitExecutor(datastore,
                KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        Jobs job = Jobs.over("Account").id("held-count").workers(1).pageSize(10);
        GatedMapper gate = new GatedMapper(Mappers.create(job.mapperSpec()), 3);
        JobHandle handle = elsewhere.start(job.spec(), gate,
                JobListener.NONE);
        gate.awaitHeld(); // the job is held mid-run; its runner still renews its lease

        clickTab("Run");
        robot.clickOn("#refreshJobs");
        Fx.waitUntil(20, () -> robot.lookup("#pastJobs .list-cell").queryAll().stream()
                .map(n -> ((ListCell<?>) n).getText()).anyMatch(t -> t != null && t.endsWith("  ·  held-count")
                        && t.contains("running (runner ")));
        robot.clickOn(robot.lookup("#pastJobs .list-cell").match(n -> ((ListCell<?>) n).getText() != null
                && ((ListCell<?>) n).getText().endsWith("  ·  held-count")).queryAs(Node.class));
        robot.clickOn("#resumeJob");
        Fx.waitUntil(30, () -> robot.lookup("#takeOverDialog").tryQuery().isPresent());
        String offer = Fx.get(() -> ((DialogPane) robot.lookup("#takeOverDialog").query())
                .getContentText());
        assertThat(offer).contains("Job held-count is being run by runner")
                .contains("(pid " + ProcessHandle.current().pid() + ")");
        assertThat(Fx.get(() -> robot.lookup("#runSummary").queryLabeled().getText()))
                .isEqualTo("Job held-count is running elsewhere.");

        robot.clickOn("Take over now");
        Fx.waitUntil(60, () -> robot.lookup("#runSummary").queryLabeled().getText().startsWith("Job held-count done:"));
        assertThat(Fx.get(() -> robot.lookup("#jobTotals").queryLabeled().getText()))
                .startsWith("read " + ACCOUNTS + " ");
        gate.release();
        JobResult fenced = handle.result().get(60, TimeUnit.SECONDS);
        assertThat(fenced.status()).isEqualTo(JobStatus.TAKEN_OVER);
        assertThat(ShardedCounter.existing(datastore, "job:held-count").total("read"))
                .as("counted exactly once across both runners").isEqualTo(ACCOUNTS);
    }

    @Test
    void theMapperTabDryRunsTheKindSelectedInTheBrowserWhileAJobRunsOnAnother() {
        selectKind("Account");
        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            robot.lookup("#jobShards").<Spinner<Integer>>query().getValueFactory().setValue(1);
            robot.lookup("#jobWorkers").<Spinner<Integer>>query().getValueFactory().setValue(1);
            robot.lookup("#jobPageSize").<Spinner<Integer>>query().getValueFactory().setValue(10);
            robot.lookup("#jobQps").<Spinner<Integer>>query().getValueFactory().setValue(10);
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(30, () -> robot.lookup("#runSummary").queryLabeled().getText().matches("Job .* running"));
        robot.clickOn("#pauseJob"); // holds the job on Account while another kind is chosen
        try {
            selectKind("Event");
            clickTab("Mapper");
            MapperExamplesMenu.choose(robot, "Add free credit");
            robot.clickOn("#dryRun");
            Fx.waitUntil(60, () -> robot.lookup("#dryRunSummary").queryLabeled().getText()
                    .contains("Nothing was written"));
            assertThat(Fx.get(() -> robot.lookup("#dryRunSummary").queryLabeled().getText()))
                    .as("the dry run is of Event, the kind selected, not Account, the running job's")
                    .contains("Warning: 'balance' is not among the indexed properties of Event")
                    .contains("Whole job, over 50 entities (exact");
        } finally {
            clickTab("Run");
            robot.clickOn("#cancelJob");
            Fx.waitUntil(60, () -> !robot.lookup("#startJob").queryButton().isDisabled());
        }
    }

    /** A client of the demo's emulator, the one the window shows in its status bar. */
    private Datastore demoDatastore() {
        String host = Fx.get(() -> robot.lookup("#connectionStatus").queryLabeled().getText())
                .replaceAll("^emulator (\\S+) / .*$", "$1");
        return DatastoreConnector.connect(
                ConnectionSpec.emulator(host, "demo-project"));
    }

    private void selectKind(String name) {
        Fx.waitUntil(10, () -> robot.lookup("#kindList .list-cell").match(node -> ((ListCell<?>) node).getItem() != null
                && ((KindItem) ((ListCell<?>) node).getItem()).name().equals(name)).tryQuery().isPresent());
        robot.clickOn(robot.lookup("#kindList .list-cell").match(node -> ((ListCell<?>) node).getItem() != null
                && ((KindItem) ((ListCell<?>) node).getItem()).name().equals(name)).queryAs(Node.class));
        Fx.waitUntil(30, () -> title().startsWith(name + ":"));
    }

    private void clickTab(String title) {
        robot.clickOn(robot.lookup(".tab").match(n -> n.lookup(".tab-label") != null
                && title.equals(((Labeled) n.lookup(".tab-label")).getText())).queryAs(Node.class));
    }

    private String title() {
        return Fx.get(() -> robot.lookup("#pageTitle").queryLabeled().getText());
    }

    private String json() {
        TextArea area = robot.lookup("#entityJson").queryTextInputControl() instanceof TextArea t ? t : null;
        return Fx.get(area::getText);
    }

    private static String jsonKey(Key key) {
        return "\"key\" : \"" + KeyFormat.format(key).replace("\"", "\\\"") + "\"";
    }
}
