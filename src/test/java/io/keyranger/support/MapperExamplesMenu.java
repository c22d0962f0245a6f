package io.keyranger.support;

import javafx.scene.Node;
import javafx.scene.control.Labeled;
import org.testfx.api.FxRobot;

/** The Mapper tab's Examples menu, used as a user does: opened, and an example clicked. */
public final class MapperExamplesMenu {
    private MapperExamplesMenu() {
    }

    /** Loads the example titled {@code title}; the Mapper tab must be showing. */
    public static void choose(FxRobot robot, String title) {
        robot.clickOn("#examples");
        Fx.waitUntil(10, () -> robot.lookup(".menu-item").match(n -> isItem(n, title)).tryQuery().isPresent());
        robot.clickOn(robot.lookup(".menu-item").match(n -> isItem(n, title)).queryAs(Node.class));
    }

    private static boolean isItem(Node node, String title) {
        return node.isVisible() && node.lookup(".label") instanceof Labeled label && title.equals(label.getText());
    }
}
