package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.job.ListedJob;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.ui.common.Specs;
import java.nio.file.Files;
import java.nio.file.Path;
import io.keyranger.support.CutOffs;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.run.ThroughputPoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Nothing is cut off at a laptop's window and a desktop's: every tab, the entity editor, the connection dialog and a
 * job's confirmation, with their field errors showing; the Backups tab after a comparison, and the Run tab with a
 * restore and an export loaded, run and inspected. A label, button, column header or field error shortened with an
 * ellipsis or cut by an edge, a count whose number wraps away from its name, a prompt that does not fit its field, or
 * chart tick labels that overlap fail it, by name; so do a Jobs list with room for fewer than five jobs, status texts
 * on two heights, and a range tree that says "No job yet" beside a job.
 */
class LayoutTest extends DemoWindowTest {
    private final List<String> found = new ArrayList<>();

    private void check(String where, Parent root) {
        WaitForAsyncUtils.waitForFxEvents();
        Fx.get(() -> {
            root.applyCss();
            root.layout();
            CutOffs.in(root).forEach(problem -> found.add(where + ": " + problem));
            return null;
        });
    }

    private Stage window() {
        return (Stage) Fx.get(() -> robot.lookup("#kindList").query().getScene().getWindow());
    }

    private DialogPane dialog() {
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        return robot.lookup(".dialog-pane").query();
    }

    private void closeDialog(String button) {
        robot.clickOn(robot.lookup(".dialog-pane .button").match(b -> button.equals(((Button) b).getText()))
                .queryButton());
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isEmpty());
    }

    /** Rows whose cells' texts do not sit on one line: the key lower than the properties, say. */
    private static List<String> misalignedRows(TableView<?> table) {
        List<String> rows = new ArrayList<>();
        for (Node row : table.lookupAll(".table-row-cell")) {
            List<Double> tops = new ArrayList<>();
            for (Node text : row.lookupAll(".table-cell > .text")) {
                if (text.isVisible() && !((Text) text).getText().isEmpty()) {
                    tops.add(text.localToScene(text.getBoundsInLocal()).getMinY());
                }
            }
            if (!tops.isEmpty() && Collections.max(tops) - Collections.min(tops) > 1) {
                rows.add("Entities: row " + ((TableRow<?>) row).getIndex() + " has its cells at "
                        + tops);
            }
        }
        return rows;
    }

    private void setNumber(String id, int value) {
        Fx.get(() -> {
            robot.lookup(id).<Spinner<Integer>>query().getValueFactory().setValue(value);
            return null;
        });
    }

    private void resize(Stage stage, int width, int height) {
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(width);
            stage.setHeight(height);
            return null;
        });
    }

    /** The Run tab with its job's tree, list and status: checked as {@link #check}, and the checks only it needs. */
    private void checkRun(String where, Parent root) {
        check(where, root);
        found.addAll(Fx.get(() -> {
            List<String> problems = new ArrayList<>();
            TreeTableView<?> tree = robot.lookup("#rangeTree").query();
            String summary = robot.lookup("#runSummary").queryLabeled().getText();
            Node placeholder = tree.lookup(".placeholder");
            if (tree.getExpandedItemCount() == 0 && placeholder != null && placeholder.isVisible()
                    && summary.startsWith("Job ")) {
                problems.add(where + ": the range tree says \"" + ((Labeled) placeholder.lookup(".label")).getText()
                        + "\" beside \"" + summary + "\"");
            }
            ListView<?> jobs = robot.lookup("#pastJobs").queryListView();
            // an empty list has no cell to measure: its rows are its fixed cell size high; what holds the list may
            // show only its top (a side panel taller than its split pane)
            Node cell = jobs.lookup(".list-cell");
            double row = cell != null ? cell.getBoundsInLocal().getHeight() : jobs.getFixedCellSize();
            double rows = Math.floor((shownHeight(jobs) - jobs.snappedTopInset() - jobs.snappedBottomInset()) / row);
            if (rows < 5) {
                problems.add(where + ": the Jobs list has room for " + (int) rows + " jobs, fewer than 5");
            }
            problems.addAll(statusBar(where));
            return problems;
        }));
    }

    /** How much of a node's height shows: inside the window and every clip of what holds it. */
    private static double shownHeight(Node node) {
        Bounds at = node.localToScene(node.getLayoutBounds());
        double top = Math.max(at.getMinY(), 0);
        double bottom = Math.min(at.getMaxY(), node.getScene().getHeight());
        for (Node p = node.getParent(); p != null; p = p.getParent()) {
            if (p.getClip() != null) {
                Bounds clip = p.localToScene(p.getClip().getBoundsInParent());
                top = Math.max(top, clip.getMinY());
                bottom = Math.min(bottom, clip.getMaxY());
            }
        }
        return Math.max(0, bottom - top);
    }

    /** The status bar's texts on one line, and the whole bar inside the window. */
    private List<String> statusBar(String where) {
        List<String> problems = new ArrayList<>();
        Node bar = robot.lookup("#statusBar").query();
        List<Double> baselines = new ArrayList<>();
        for (Node text : bar.lookupAll(".text")) {
            if (text.isVisible() && text instanceof Text t && !t.getText().isEmpty() && visibleUp(text)) {
                baselines.add(text.localToScene(0, t.getBaselineOffset() + t.getLayoutBounds().getMinY()).getY());
            }
        }
        if (!baselines.isEmpty() && Collections.max(baselines) - Collections.min(baselines) > 1) {
            problems.add(where + ": the status bar's texts sit at " + baselines);
        }
        for (Node child : bar.lookupAll("*")) {
            if (child.isVisible() && visibleUp(child) && child.localToScene(child.getLayoutBounds()).getMaxY()
                    > bar.getScene().getHeight() + 1) {
                problems.add(where + ": " + child.getClass().getSimpleName() + " in the status bar runs below the "
                        + "window");
            }
        }
        return problems;
    }

    private static boolean visibleUp(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    /** Selects the job of the list whose template is {@code template}, the newest first, and inspects it. */
    private void inspect(String template) {
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> jobs.getItems().stream().anyMatch(j -> j.spec().mapper().template().equals(template)
                && j.describeStatus().equals("done")));
        Fx.get(() -> {
            jobs.getSelectionModel().select(jobs.getItems().stream()
                    .filter(j -> j.spec().mapper().template().equals(template)).findFirst().orElseThrow());
            return null;
        });
        robot.clickOn("#inspectJob");
        Fx.waitUntil(20, () -> labelText("#runSummary").contains("(stored, done)"));
    }

    /**
     * The demo's Account exported by the emulator, 5 accounts deleted and compared on the Backups tab, restored from
     * the Run tab (which brings them back), then exported by a job: each screen checked at the default window.
     */
    @Test
    void theBackupsTabAfterAComparisonAndARestoreAndAnExportOnTheRunTab() throws Exception {
        Stage stage = window();
        resize(stage, 1278, 775);
        Parent main = Fx.get(() -> stage.getScene().getRoot());
        Path export = exportAccount("keyranger-layout");
        Datastore datastore = demoDatastore();
        List<Key> five = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Account").setLimit(5).build()).forEachRemaining(five::add);
        datastore.delete(five.toArray(new Key[0]));

        clickTab("Backups");
        openExport(export);
        robot.clickOn("#compareExport");
        Fx.waitUntil(60, () -> labelText("#diffSummary").contains("5 removed"));
        TableView<?> examples = robot.lookup("#diffExamples").queryTableView();
        Fx.get(() -> {
            examples.getSelectionModel().select(0);
            return null;
        });
        Fx.waitUntil(10, () -> !robot.lookup("#sideBySide").queryTableView().getItems().isEmpty());
        check("Backups after a comparison", main);

        robot.clickOn("#restoreExport");
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#mapperJson").queryTextInputControl().getText())
                .contains("\"mode\":\"skip-changed\""));
        checkRun("Run, a restore loaded", main);
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));
        checkRun("Run, a restore done", main);
        inspect("import");
        checkRun("Run, a restore inspected", main);

        Path folder = Files.createTempDirectory("keyranger-layout-export");
        setText("#mapperJson", Specs.text(Specs.exportTo(folder).put("format", "managed")));
        checkRun("Run, an export loaded", main);
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));
        checkRun("Run, an export done", main);
        inspect("export");
        checkRun("Run, an export inspected", main);

        // an increment running (80 accounts at 4 a second, a page of 2), then done, reverted, and a count by tier
        setText("#mapperJson", "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 1}");
        setNumber("#jobPageSize", 2);
        setNumber("#jobQps", 4);
        robot.clickOn("#startJob");
        dialog();
        closeDialog("Run without export");
        Fx.waitUntil(30, () -> labelText("#runSummary").endsWith(" running")
                && labelText("#jobTotals").matches("(?s)read [1-9].*"));
        checkRun("Run, an increment running", main);
        setNumber("#jobQps", 0);
        setNumber("#jobPageSize", 200);
        Fx.waitUntil(90, () -> labelText("#runSummary").contains(" done: "));
        checkRun("Run, an increment done", main);
        ListView<ListedJob> jobs = robot.lookup("#pastJobs").queryListView();
        Fx.waitUntil(20, () -> {
            // the job selected before (the export inspected) stays selected as the list is read again: select it
            ListedJob selected = jobs.getSelectionModel().getSelectedItem();
            if (selected == null || !selected.spec().mapper().template().equals("increment")
                    || !selected.describeStatus().equals("done")) {
                jobs.getItems().stream().filter(j -> j.spec().mapper().template().equals("increment")
                        && j.describeStatus().equals("done")).findFirst()
                        .ifPresent(j -> jobs.getSelectionModel().select(j));
            }
            return !robot.lookup("#revertJob").queryButton().isDisabled();
        });
        Platform.runLater(() -> robot.lookup("#revertJob").queryButton().fire()); // its confirmation waits for a click
        dialog();
        closeDialog("Revert");
        Fx.waitUntil(60, () -> labelText("#runSummary").startsWith("Job revert-")
                && labelText("#runSummary").contains(" done: "));
        checkRun("Run, a revert done", main);
        setText("#mapperJson", "{\"template\": \"count-by\", \"property\": \"tier\"}");
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: ")
                && Fx.get(() -> robot.lookup("#countByChart").query().isVisible()));
        checkRun("Run, a count by tier done", main);

        // a dry run's changes: every column in sight
        clickTab("Mapper");
        Fx.get(() -> {
            robot.lookup("#templateChoice").<ComboBox<Template>>query().setValue(Mappers.template("increment"));
            return null;
        });
        setText("#param-property", "balance");
        setText("#param-amount", "1");
        robot.clickOn("#dryRun");
        Fx.waitUntil(60, () -> labelText("#dryRunSummary").contains("Nothing was written"));
        check("Mapper, a dry run", main);

        assertThat(found).as("cut off or misplaced at 1278x775").isEmpty();
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1280, 775", "1600, 1000"})
    void nothingIsCutOffAndNoTickLabelsOverlap(int width, int height) {
        Stage stage = window();
        resize(stage, width, height);
        Parent main = Fx.get(() -> stage.getScene().getRoot());
        for (String kind : List.of("Event", "Org", "Account")) { // a new kind's rows: each cell on one baseline
            selectKindInList(kind);
            WaitForAsyncUtils.waitForFxEvents();
            found.addAll(Fx.get(() -> misalignedRows(robot.lookup("#entityTable").queryTableView())));
        }
        check("Entities", main);

        // the entity editor, with a field error showing
        TableView<?> table = robot.lookup("#entityTable").queryTableView();
        Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(0);
            return null;
        });
        robot.clickOn("#editEntity");
        DialogPane editor = dialog();
        setText("#prop-1-value", "not a number");
        check("Entity editor", editor);
        closeDialog("Cancel");

        clickTab("Shards");
        robot.clickOn("#planShards");
        Fx.waitUntil(60, () -> !labelText("#shardSummary").isEmpty());
        check("Shards", main);
        TableView<?> shards = robot.lookup("#shardTable").queryTableView();
        Callable<Long> rowsShown = () -> shards.lookupAll(".table-row-cell").stream()
                .filter(row -> row.isVisible() && ((TableRow<?>) row).getItem() != null
                        && row.localToScene(row.getLayoutBounds()).getMaxY()
                        <= shards.localToScene(shards.getLayoutBounds()).getMaxY()).count();
        try {
            Fx.waitUntil(10, () -> rowsShown.call() >= 8);
        } catch (AssertionError e) {
            found.add("Shards: " + Fx.get(rowsShown) + " planned ranges in view, fewer than 8");
        }

        clickTab("Mapper");
        setText("#param-property", "");
        setText("#param-amount", "");
        check("Mapper", main);

        clickTab("Run");
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText("{\"template\": \"count\"}");
            return null;
        });
        robot.clickOn("#startJob");
        Fx.waitUntil(60, () -> labelText("#runSummary").contains(" done: "));
        // a job's throughput after a minute and a half: the time axis's labels must not run together
        Fx.get(() -> {
            var points = ((KeyRangerApp) app).model().run().throughput();
            for (int second = 1; second <= 95; second++) {
                points.add(new ThroughputPoint(second + 0.03, 400 + second % 7));
            }
            return null;
        });
        check("Run", main);
        Fx.get(() -> {
            robot.lookup("#mapperJson").queryTextInputControl().setText(
                    "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 1}");
            return null;
        });
        robot.clickOn("#startJob");
        check("Run confirmation", dialog());
        closeDialog("Cancel");

        // the connection dialog, with a field error showing
        robot.clickOn("#newProfileButton");
        DialogPane profile = dialog();
        setText("#profileHost", "nowhere");
        check("Connection dialog", profile);
        closeDialog("Cancel");

        assertThat(found).as("cut off or overlapping at %dx%d", width, height).isEmpty();
    }
}
