package io.keyranger.ui;

import io.keyranger.job.ListedJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.job.JobStatus;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.run.NodeRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.scene.chart.LineChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.material2.Material2MZ;

/** What the Run tab and the window say of a job's state: paused, finished, and what quitting does to it. */
class RunTabStatesTest extends DemoWindowTest {
    private String summary() {
        return labelText("#runSummary");
    }

    private void setNumber(String id, int value) {
        Fx.get(() -> {
            robot.lookup(id).<Spinner<Integer>>query().getValueFactory().setValue(value);
            return null;
        });
    }

    private void useMapper(String json) {
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText(json);
            return null;
        });
    }

    /** The tree's rows with the text of one of its columns. */
    private List<String> column(String title) {
        TreeTableView<NodeRow> tree = robot.lookup("#rangeTree").query();
        return Fx.get(() -> {
            var column = tree.getColumns().stream().filter(c -> c.getText().equals(title)).findFirst().orElseThrow();
            List<String> texts = new ArrayList<>();
            collect(tree.getRoot(), item -> texts.add(String.valueOf(column.getCellData(item))));
            return texts;
        });
    }

    private static void collect(TreeItem<NodeRow> item, Consumer<TreeItem<NodeRow>> out) {
        for (TreeItem<NodeRow> child : item.getChildren()) {
            out.accept(child);
            collect(child, out);
        }
    }

    /** Selects a stored job in the list (through its selection model: the list may sit below a small window's fold). */
    @SuppressWarnings("unchecked")
    private void selectJob(String jobId) {
        selectJob(jobId, j -> true);
    }

    /**
     * Selects the job once the list shows it as {@code listed} says: the list may still hold an earlier reading (the
     * job as it was while running) until the refresh lands.
     */
    private void selectJob(String jobId,
                           Predicate<ListedJob> listed) {
        fire("#refreshJobs");
        ListView<ListedJob> jobs = robot.lookup("#pastJobs")
                .queryListView();
        Predicate<ListedJob> wanted =
                j -> j.spec().jobId().equals(jobId) && listed.test(j);
        Fx.waitUntil(20, () -> Fx.get(() -> jobs.getItems().stream().anyMatch(wanted)));
        Fx.get(() -> {
            jobs.getSelectionModel().select(jobs.getItems().stream().filter(wanted).findFirst().orElseThrow());
            return null;
        });
    }

    /**
     * Selects the job as the list shows it done and presses {@code button} in one turn of the FX thread, once the
     * button is enabled: a refresh that lands after a selection replaces the list's items and clears it, and the
     * list may still hold a reading of the job running.
     */
    private void selectThenFire(String jobId, Predicate<ListedJob> listed, String button) {
        fire("#refreshJobs");
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> Fx.get(() -> {
            ListedJob selected = jobs.getSelectionModel().getSelectedItem();
            if (selected == null || !selected.spec().jobId().equals(jobId) || !listed.test(selected)) {
                jobs.getItems().stream().filter(j -> j.spec().jobId().equals(jobId) && listed.test(j)).findFirst()
                        .ifPresent(j -> jobs.getSelectionModel().select(j));
                return false;
            }
            Button pressed = robot.lookup(button).queryButton();
            if (pressed.isDisabled()) {
                return false;
            }
            pressed.fire();
            return true;
        }));
    }

    /** Presses a button of the job list, wherever the window's size puts it. */
    private void fire(String id) {
        Fx.waitUntil(10, () -> !robot.lookup(id).queryButton().isDisabled());
        Fx.get(() -> {
            robot.lookup(id).queryButton().fire();
            return null;
        });
    }

    /** What the toolbar's Mapper box shows: a template, or null while it shows its prompt. */
    private String templateShown() {
        return Fx.get(() -> robot.lookup("#mapperTemplate").<ComboBox<String>>query().getValue());
    }

    /** The icon of the Pause/Resume button. */
    private Ikon pauseIcon() {
        return Fx.get(() -> ((FontIcon) robot.lookup("#pauseJob").queryButton().getGraphic()).getIconCode());
    }

    /** How the job list's row of {@code jobId} says its status ("" when it is not listed). */
    private String listedAs(String jobId) {
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        return Fx.get(() -> jobs.lookupAll(".list-cell").stream().map(cell -> ((ListCell<?>) cell).getText())
                .filter(text -> text != null && List.of(text.split("  ·  ")).indexOf(jobId) == 2).findFirst()
                .map(text -> text.split("  ·  ")[0]).orElse("")); // status  ·  template  ·  id
    }

    @Test
    void aPausedJobLooksPausedAndQuittingTheDemoSaysItsDataGoes() throws Exception {
        clickTab("Run");
        useMapper("{\"template\": \"count\"}");
        setNumber("#jobShards", 2);
        setNumber("#jobWorkers", 2);
        setNumber("#jobPageSize", 2);
        setNumber("#jobQps", 4); // 80 accounts at 4 a second: about 20 s
        try {
            robot.clickOn("#startJob");
            Fx.waitUntil(30, () -> column("Status").contains("running"));
            robot.clickOn("#pauseJob");
            Fx.waitUntil(10, () -> summary().contains(" paused"));
            Fx.waitUntil(10, () -> !column("Status").contains("running"));
            assertThat(column("Status")).contains("paused");
            Fx.waitUntil(10, () -> labelText("#jobTiming").startsWith("paused"));
            String timing = labelText("#jobTiming");
            assertThat(timing).startsWith("paused · elapsed ").doesNotContain("ETA");
            assertThat(pauseIcon()).as("Resume shows the play icon, not the pause icon")
                    .isEqualTo(Material2MZ.PLAY_ARROW);
            String jobId = summary().replaceAll("^Job (\\S+) paused.*$", "$1");
            fire("#refreshJobs");
            Fx.waitUntil(20, () -> listedAs(jobId).equals("paused")); // not "running (runner …)"
            Thread.sleep(1500);
            assertThat(labelText("#jobTiming")).as("the clock stands still while paused").isEqualTo(timing);

            // closing the window now: the demo's emulator goes with it, and the dialog says so
            Stage stage = (Stage) robot.lookup("#runView").query().getScene().getWindow();
            Platform.runLater(() -> stage.fireEvent(new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST)));
            Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
            assertThat(Fx.get(() -> ((DialogPane) robot.lookup(".dialog-pane").query())
                    .getContentText())).contains("This is the demo").contains("gone for good")
                    .doesNotContain("resume it later");
            robot.clickOn(robot.lookup(".dialog-pane .button").match(b -> "Cancel".equals(
                    ((Button) b).getText())).queryButton()); // the dialog's, not the job's
            Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isEmpty());
            assertThat(Fx.get(stage::isShowing)).isTrue();

            robot.clickOn("#pauseJob"); // Resume
            Fx.waitUntil(10, () -> summary().endsWith(" running"));
            Fx.waitUntil(10, () -> labelText("#jobTiming").startsWith("elapsed "));
            assertThat(pauseIcon()).isEqualTo(Material2MZ.PAUSE);
            assertThat(listedAs(jobId)).startsWith("running");
        } finally {
            robot.clickOn("#cancelJob");
            Fx.waitUntil(60, () -> !robot.lookup("#startJob").queryButton().isDisabled());
            setNumber("#jobQps", 0);
            setNumber("#jobPageSize", 200);
        }
    }

    @Test
    void onceCancelledPauseAndCancelAreOffAndTheJobSaysItIsCancellingUntilItEnds() {
        clickTab("Run");
        useMapper("{\"template\": \"count\"}");
        setNumber("#jobShards", 16); // many ranges wait for the two workers
        setNumber("#jobWorkers", 2);
        setNumber("#jobPageSize", 2);
        setNumber("#jobQps", 4); // 80 accounts at 4 a second: about 20 s
        try {
            robot.clickOn("#startJob");
            Fx.waitUntil(30, () -> summary().endsWith(" running") && column("Status").contains("running"));
            Button pause = robot.lookup("#pauseJob").queryButton();
            Button cancel = robot.lookup("#cancelJob").queryButton();
            assertThat(Fx.get(() -> !pause.isDisabled() && !cancel.isDisabled())).isTrue();
            // the click and what follows in one turn of the FX thread: the job cannot have ended in between
            long clicked = System.nanoTime();
            List<Object> right = Fx.get(() -> {
                cancel.fire();
                return List.of(pause.isDisabled(), cancel.isDisabled(), summary());
            });
            assertThat(right.subList(0, 2)).as("Pause and Cancel once Cancel is clicked").containsOnly(true);
            assertThat((String) right.get(2)).startsWith("Cancelling ").contains("no range or page starts now");
            Fx.waitUntil(30, () -> !robot.lookup("#startJob").queryButton().isDisabled());
            System.out.printf("Run tab: cancelled in %d ms: %s%n", (System.nanoTime() - clicked) / 1_000_000,
                    summary());
            assertThat(summary()).matches("Job \\S+ cancelled.*");
            assertThat(column("Status")).as("ranges that waited show cancelled; none still running or queued")
                    .contains("cancelled").doesNotContain("running", "queued");
            assertThat(Fx.get(() -> pause.isDisabled() && cancel.isDisabled())).isTrue();
        } finally {
            setNumber("#jobQps", 0);
            setNumber("#jobPageSize", 200);
            setNumber("#jobShards", 16);
            setNumber("#jobWorkers", 8);
        }
    }

    /** What a number field of the settings bar shows. */
    private String numberShown(String id) {
        return Fx.get(() -> robot.lookup(id).<Spinner<Integer>>query().getEditor().getText());
    }

    @Test
    void aResumedJobShowsItsOwnSettingsAndAnEtaWhileItRuns() {
        clickTab("Run");
        useMapper("{\"template\": \"count\"}");
        setNumber("#jobShards", 2);
        setNumber("#jobWorkers", 2);
        setNumber("#jobPageSize", 2);
        setNumber("#jobQps", 4); // 80 accounts at 4 a second: about 20 s
        try {
            robot.clickOn("#startJob");
            Fx.waitUntil(30, () -> summary().endsWith(" running") && column("Status").contains("running"));
            String jobId = summary().replaceAll("^Job (\\S+) running$", "$1");
            Fx.waitUntil(30, () -> labelText("#jobTiming").contains("ETA"));
            robot.clickOn("#cancelJob");
            Fx.waitUntil(60, () -> summary().startsWith("Job " + jobId + " cancelled"));
            // the form goes back to its defaults; the stored job keeps the settings it was started with
            setNumber("#jobShards", 16);
            setNumber("#jobWorkers", 8);
            setNumber("#jobPageSize", 200);
            setNumber("#jobQps", 0);

            selectThenFire(jobId, j -> j.status() == JobStatus.CANCELLED, "#resumeJob");
            assertThat(List.of(numberShown("#jobShards"), numberShown("#jobWorkers"), numberShown("#jobPageSize"),
                    numberShown("#jobQps"))).as("the settings the resumed job runs with, not the form's")
                    .containsExactly("2", "2", "2", "4");
            Fx.waitUntil(30, () -> summary().equals("Job " + jobId + " running"));
            Fx.waitUntil(30, () -> labelText("#jobTiming").contains("ETA"));
            assertThat(labelText("#jobTiming")).matches("elapsed .* · ETA .*");
        } finally {
            if (!robot.lookup("#cancelJob").queryButton().isDisabled()) {
                robot.clickOn("#cancelJob");
            }
            Fx.waitUntil(60, () -> !robot.lookup("#startJob").queryButton().isDisabled());
            setNumber("#jobQps", 0);
            setNumber("#jobPageSize", 200);
            setNumber("#jobShards", 16);
            setNumber("#jobWorkers", 8);
        }
    }

    @Test
    void aSpecNamingAPropertyTheKindLacksIsWarnedOfBesideTheJobAsTheCommandLineWarns() {
        // before, the app's door skipped the command line's checks: the job ran and said nothing of the typo
        clickTab("Run");
        useMapper("{\"template\": \"count-by\", \"property\": \"tierr\"}");
        setNumber("#jobShards", 4);
        setNumber("#jobWorkers", 4);
        setNumber("#jobPageSize", 50);
        try {
            robot.clickOn("#startJob");
            Fx.waitUntil(60, () -> summary().contains(" done: "));
            assertThat(labelText("#jobProblems")).as("said beside the finished job").startsWith("warning: 'tierr'")
                    .contains("Did you mean 'tier'?");
        } finally {
            setNumber("#jobPageSize", 200);
            setNumber("#jobShards", 16);
            setNumber("#jobWorkers", 8);
        }
    }

    @Test
    void aFinishedJobShowsAsItFinishedWhateverIsAskedOfItAfterwards() {
        clickTab("Run");
        useMapper("{\"template\": \"count\"}");
        setNumber("#jobShards", 4);
        setNumber("#jobWorkers", 4);
        setNumber("#jobPageSize", 5);
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> summary().contains(" done: "));
        Matcher finished = Pattern.compile("^Job (\\S+) done: (\\d+) ranges, depth (\\d+), ([0-9.]+) s").matcher(summary());
        assertThat(finished.find()).as(summary()).isTrue();
        String jobId = finished.group(1);
        String asFinished = finished.group(2) + " ranges, depth " + finished.group(3) + ", " + finished.group(4) + " s";
        assertThat(Double.parseDouble(finished.group(4))).isPositive();

        selectThenFire(jobId, j -> j.status() == JobStatus.DONE, "#resumeJob");
        Fx.waitUntil(30, () -> summary().contains("done already"));
        assertThat(summary()).as("its wall time and depth as it finished, not 0.0 s").contains(asFinished);
        List<String> subtree = column("Subtree");
        assertThat(subtree).isNotEmpty().doesNotContain("0");
        TreeTableView<NodeRow> tree = robot.lookup("#rangeTree").query();
        long rootsTotal = Fx.get(() -> tree.getRoot().getChildren().stream()
                .mapToLong(item -> item.getValue().snapshotProperty().get().subtreeEntities()).sum());
        assertThat(rootsTotal).as("every Account, under the planned ranges").isEqualTo(80);

        selectJob(jobId); // the list was read again when the resume ended
        fire("#inspectJob");
        Fx.waitUntil(30, () -> summary().startsWith("Job " + jobId + " (stored, done): "));
        assertThat(summary()).as("its run as its summary gave it: the ranges, depth and time it ended with")
                .startsWith("Job " + jobId + " (stored, done): " + asFinished + "; stored as ");
        assertThat(labelText("#jobTiming")).as("the timing of that run, no other clock and no ETA")
                .isEqualTo("elapsed " + finished.group(4) + " s");
        LineChart<Number, Number> chart = robot.lookup("#throughputChart").query();
        List<double[]> points = Fx.get(() -> chart.getData().get(0).getData().stream()
                .map(d -> new double[] {d.getXValue().doubleValue(), d.getYValue().doubleValue()}).toList());
        assertThat(points).as("the chart covers the job's whole run").isNotEmpty();
        assertThat(points.get(points.size() - 1)[0]).isCloseTo(Double.parseDouble(finished.group(4)),
                Offset.offset(0.051));
        double drawn = 0;
        for (int i = 0; i < points.size(); i++) {
            drawn += points.get(i)[1] * (points.get(i)[0] - (i == 0 ? 0 : points.get(i - 1)[0]));
        }
        assertThat(drawn).as("its rates add up to the entities the job read").isCloseTo(80, Offset.offset(0.5));
        Matcher ranges = Pattern.compile("(\\d+) cells: (\\d+) read to the end, (\\d+) split into others$")
                .matcher(summary());
        assertThat(ranges.find()).as(summary()).isTrue();
        assertThat(Integer.parseInt(ranges.group(2)) + Integer.parseInt(ranges.group(3)))
                .isEqualTo(Integer.parseInt(ranges.group(1)));
        setNumber("#jobPageSize", 200);
    }

    @Test
    void aFinishedJobIsRevertedFromTheJobList() {
        Map<Key, Entity> before = accounts();
        clickTab("Run");
        useMapper("{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 5}");
        setNumber("#jobShards", 4);
        setNumber("#jobWorkers", 4);
        setNumber("#jobPageSize", 20);
        robot.clickOn("#startJob");
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        assertThat(Fx.get(() -> ((DialogPane) robot.lookup(".dialog-pane").query())
                .getContentText())).contains("It keeps undo records");
        robot.clickOn("Run without export");
        try {
            Fx.waitUntil(60, () -> summary().contains(" done: "));
        } catch (AssertionError e) {
            throw new AssertionError("summary: " + summary() + " / problems: " + labelText("#jobProblems") + " / start disabled: " + Fx.get(() -> robot.lookup("#startJob").queryButton().isDisabled()) + " / dialogs: " + Fx.get(() -> robot.lookup(".dialog-pane").queryAll().stream().map(d -> ((DialogPane) d).getHeaderText() + ": " + ((DialogPane) d).getContentText()).toList()) + " / title: " + title(), e);
        }
        Matcher finished = Pattern.compile("^Job (\\S+) done: ").matcher(summary());
        assertThat(finished.find()).as(summary()).isTrue();
        String jobId = finished.group(1);
        assertThat(accounts()).isNotEqualTo(before);
        assertThat(templateShown()).as("once the job is done, the Mapper box shows the form's template again, not "
                + "its blank prompt").isEqualTo("increment");

        selectJob(jobId, j -> j.status() == JobStatus.DONE);
        Fx.waitUntil(10, () -> !robot.lookup("#revertJob").queryButton().isDisabled());
        Platform.runLater(() -> robot.lookup("#revertJob").queryButton().fire()); // its confirmation waits for a click
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        assertThat(Fx.get(() -> ((DialogPane) robot.lookup(".dialog-pane").query())
                .getContentText())).contains("Entities changed since the job keep their values");
        // what the toolbar names each time the summary says the revert runs, heard as it changes (it runs briefly)
        List<String> namedWhileReverting = new CopyOnWriteArrayList<>();
        Label summaryLabel = robot.lookup("#runSummary").query();
        ChangeListener<String> watch = (obs, old, now) -> {
            if (now.startsWith("Job revert-" + jobId) && now.endsWith(" running")) {
                namedWhileReverting.add(labelText("#mapperSummary"));
            }
        };
        Fx.get(() -> {
            summaryLabel.textProperty().addListener(watch);
            return null;
        });
        robot.clickOn(robot.lookup(".dialog-pane .button").match(b -> "Revert".equals(
                ((Button) b).getText())).queryButton());
        Fx.waitUntil(60, () -> summary().startsWith("Job revert-" + jobId) && summary().contains(" done: "));
        Fx.get(() -> {
            summaryLabel.textProperty().removeListener(watch);
            return null;
        });
        assertThat(namedWhileReverting).as("the toolbar names the revert while it runs, not the increment")
                .isNotEmpty().allMatch(named -> named.equals("revert · job " + jobId));
        assertThat(labelText("#mapperSummary")).as("once it is done, the form's mapper again")
                .startsWith("increment");
        assertThat(templateShown()).as("and its template in the Mapper box").isEqualTo("increment");
        String revertId = summary().replaceAll("^Job (\\S+) done: .*$", "$1");
        // the listing asked for as it started may answer after the one asked for as it ended: the newest one shows
        Fx.waitUntil(20, () -> listedAs(revertId).equals("done"));
        assertThat(accounts()).as("every Account as it was before the job").isEqualTo(before);
        setNumber("#jobPageSize", 200);
    }

    private Map<Key, Entity> accounts() {
        Map<Key, Entity> all = new HashMap<>();
        demoDatastore().run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }
}
