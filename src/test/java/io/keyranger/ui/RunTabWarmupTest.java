package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.support.Fx;
import io.keyranger.support.OfflineAppTest;
import io.keyranger.ui.run.RunTabWarmup;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.scene.control.TabPane;
import javafx.scene.control.TreeTableView;
import org.junit.jupiter.api.Test;

/**
 * The start-up warm-up of the Run tab (no Datastore needed): it shows made-up rows in the window's own Run tab only
 * while another tab hides it, and leaves the tab as it found it, empty.
 */
class RunTabWarmupTest extends OfflineAppTest {
    @Test
    void withTheRunTabHiddenItWarmsTheWindowsOwnTreeAndLeavesItEmpty() throws Exception {
        launch();
        RunTabWarmup.Result result = app.runTabWarmUp().get(60, TimeUnit.SECONDS);
        assertThat(result.inPlaceSteps()).as("made-up changes shown in the hidden Run tab").isGreaterThan(10);
        assertRunTabEmpty();
    }

    @Test
    void withTheRunTabOnScreenItLeavesTheWindowsOwnTreeAlone() throws Exception {
        launch();
        Fx.get(() -> { // at once: the warm-up spends its first second on its own off-screen tab
            TabPane tabs = robot.lookup(".tab-pane").query();
            tabs.getSelectionModel().select(tabs.getTabs().stream().filter(t -> t.getText().equals("Run"))
                    .findFirst().orElseThrow());
            return null;
        });
        RunTabWarmup.Result result = app.runTabWarmUp().get(60, TimeUnit.SECONDS);
        assertThat(result.inPlaceSteps()).isZero();
        assertRunTabEmpty();
    }

    private void launch() throws Exception {
        launch(Files.createTempDirectory("keyranger-warmup"));
    }

    private void assertRunTabEmpty() {
        TreeTableView<?> tree = robot.lookup("#rangeTree").query();
        assertThat(Fx.get(() -> tree.getRoot().getChildren().size())).as("rows left in the Run tab").isZero();
        assertThat(Fx.get(() -> robot.lookup("#runSummary").<Labeled>query().getText())).doesNotContain("warm-up");
    }
}
