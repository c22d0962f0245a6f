package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.support.Fx;
import io.keyranger.support.OfflineAppTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/** The main window's size, position and dividers across restarts, with the real app (no connection needed). */
class WindowLayoutTest extends OfflineAppTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sizePositionAndDividersAreSavedOnCloseAndRestoredOnTheNextStart() throws Exception {
        Path config = Files.createTempDirectory("keyranger-window");
        Stage stage = launch(config);
        Fx.get(() -> {
            stage.setMaximized(false);
            stage.setX(60);
            stage.setY(40);
            stage.setWidth(1000);
            stage.setHeight(650);
            return null;
        });
        SplitPane main = robot.lookup("#mainSplit").query();
        double before = Fx.get(() -> main.getDividerPositions()[0]);
        Node divider = robot.lookup(".split-pane-divider").match(n -> n.getParent() == main).query();
        robot.drag(divider).moveBy(90, 0).drop();
        double dragged = Fx.get(() -> main.getDividerPositions()[0]);
        assertThat(dragged).isGreaterThan(before + 0.05);
        double entities = Fx.get(() -> robot.lookup("#entitiesSplit").<SplitPane>query().getDividerPositions()[0]);

        FxToolkit.cleanupApplication(app);
        app = null;
        JsonNode window = JSON.readTree(config.resolve("settings.json").toFile()).get("window");
        assertThat(window.get("x").asDouble()).isEqualTo(60);
        assertThat(window.get("y").asDouble()).isEqualTo(40);
        assertThat(window.get("width").asDouble()).isEqualTo(1000);
        assertThat(window.get("height").asDouble()).isEqualTo(650);
        assertThat(window.get("maximized").asBoolean()).isFalse();
        assertThat(window.get("dividers").get("main").asDouble()).isCloseTo(dragged, within(0.001));

        FxToolkit.cleanupStages();
        Fx.get(() -> { // the test's stage is reused: move it away so that only the settings can bring it back
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(400);
            stage.setHeight(300);
            return null;
        });
        launch(config);
        Fx.waitUntil(10, () -> stage.getX() == 60 && stage.getY() == 40 && stage.getWidth() == 1000
                && stage.getHeight() == 650 && !stage.isMaximized());
        SplitPane restored = robot.lookup("#mainSplit").query();
        Fx.waitUntil(10, () -> Math.abs(restored.getDividerPositions()[0] - dragged) < 0.01);
        assertThat(Fx.get(() -> robot.lookup("#entitiesSplit").<SplitPane>query().getDividerPositions()[0]))
                .isCloseTo(entities, within(0.01));
    }

    /**
     * No small blank window at start: the first moment the window shows, it has its scene, at the size it opens with,
     * with the main view laid out over all of it.
     */
    @Test
    void theWindowFirstShowsWithItsSceneLaidOutAtItsSize() throws Exception {
        Path config = Files.createTempDirectory("keyranger-window");
        Files.writeString(config.resolve("settings.json"), """
                {"darkTheme": false, "window": {"x": 40, "y": 30, "width": 1278, "height": 775,
                 "maximized": false, "dividers": {"main": 0.25}}}
                """);
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.get(() -> { // as a fresh start's stage: never shown, no scene
            stage.hide();
            stage.setScene(null);
            stage.setWidth(200);
            stage.setHeight(150);
            return null;
        });
        List<String> firstShown = new ArrayList<>();
        ChangeListener<Boolean> shown = (obs, was, showing) -> {
            if (showing && firstShown.isEmpty()) {
                Scene scene = stage.getScene();
                Parent root = scene == null ? null : scene.getRoot();
                firstShown.add(root == null ? "no scene" : String.format("stage %.0fx%.0f, scene %.0fx%.0f, root "
                        + "%.0fx%.0f%s", stage.getWidth(), stage.getHeight(), scene.getWidth(), scene.getHeight(),
                        root.getLayoutBounds().getWidth(), root.getLayoutBounds().getHeight(), root.isNeedsLayout() ? " (not laid out)" : ""));
            }
        };
        Fx.get(() -> {
            stage.showingProperty().addListener(shown);
            return null;
        });
        try {
            launch(config);
        } finally {
            Fx.get(() -> {
                stage.showingProperty().removeListener(shown);
                return null;
            });
        }
        assertThat(firstShown).containsExactly("stage 1278x775, scene 1278x775, root 1278x775");
    }

    @Test
    void aRememberedPositionOffEveryScreenIsIgnored() throws Exception {
        Path config = Files.createTempDirectory("keyranger-window");
        Files.writeString(config.resolve("settings.json"), """
                {"darkTheme": false, "window": {"x": 5000, "y": 3000, "width": 900, "height": 600,
                 "maximized": false, "dividers": {"main": 0.3}}}
                """);
        Stage stage = launch(config);
        Rectangle2D screen = Fx.get(() -> Screen.getPrimary().getVisualBounds());
        Fx.waitUntil(10, () -> stage.getWidth() == 900 && stage.getHeight() == 600);
        Rectangle2D window = Fx.get(() -> new Rectangle2D(stage.getX(), stage.getY(), stage.getWidth(),
                stage.getHeight()));
        assertThat(screen.contains(window)).as("%s inside %s", window, screen).isTrue();
        assertThat(Fx.get(stage::isMaximized)).isFalse();
    }

    @Test
    void aFirstStartOnADesktopScreenOpensAtMostOfItAndInsideIt() throws Exception {
        Rectangle2D screen = Fx.get(() -> Screen.getPrimary().getVisualBounds());
        Stage stage = launch(Files.createTempDirectory("keyranger-window"));
        // the headless screen is 1600 x 1000 (a small one opens maximized: WindowPlacementTest)
        assertThat(screen.getWidth()).isGreaterThanOrEqualTo(1366);
        Fx.waitUntil(10, () -> stage.isShowing() && stage.getWidth() > 0);
        Rectangle2D window = Fx.get(() -> new Rectangle2D(stage.getX(), stage.getY(), stage.getWidth(),
                stage.getHeight()));
        assertThat(Fx.get(stage::isMaximized)).isFalse();
        assertThat(screen.contains(window)).as("%s inside %s", window, screen).isTrue();
        assertThat(window.getWidth()).isGreaterThanOrEqualTo(screen.getWidth() * 0.75);
    }
}
