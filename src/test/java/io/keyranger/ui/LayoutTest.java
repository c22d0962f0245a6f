package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.support.CutOffs;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.run.ThroughputPoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Nothing is cut off at a laptop's window and a desktop's: every tab, the entity editor, the connection dialog and a
 * job's confirmation, with their field errors showing. A label, button, column header or field error shortened with
 * an ellipsis, a prompt that does not fit its field, or chart tick labels that overlap fail it, by name.
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

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1280, 775", "1600, 1000"})
    void nothingIsCutOffAndNoTickLabelsOverlap(int width, int height) {
        Stage stage = window();
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(width);
            stage.setHeight(height);
            return null;
        });
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
