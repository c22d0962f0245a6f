package io.keyranger.support;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.chart.Axis;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextField;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.text.Text;

/**
 * What a window shows cut off: a label, button, check box, choice, column header or field error whose text the skin
 * shortened with an ellipsis, a text field whose prompt does not fit, and chart tick labels that overlap. The rows of
 * tables, lists and trees are data, shortened on purpose with their whole value as a tooltip, and are not judged. Call on the
 * FX thread after a layout pass.
 */
public final class CutOffs {
    private CutOffs() {
    }

    public static List<String> in(Parent root) {
        List<String> found = new ArrayList<>();
        walk(root, found);
        return found;
    }

    private static void walk(Node node, List<String> found) {
        if (!node.isVisible() || node instanceof IndexedCell<?> && inVirtualFlow(node)) {
            return;
        }
        if (node instanceof Labeled labeled) {
            String text = labeled.getText();
            String shown = shownText(labeled);
            if (text != null && !text.isEmpty() && shown != null && !shown.equals(text)
                    && shown.endsWith(labeled.getEllipsisString())) {
                found.add(describe(labeled) + " shows \"" + shown + "\" of \"" + text + "\"");
            }
        }
        if (node instanceof TextField field && field.getText().isEmpty() && field.getPromptText() != null
                && !field.getPromptText().isEmpty() && field.getWidth() > 0) {
            Text measure = new Text(field.getPromptText());
            measure.setFont(field.getFont());
            double room = field.getWidth() - field.snappedLeftInset() - field.snappedRightInset();
            if (measure.getLayoutBounds().getWidth() > room + 1) {
                found.add(describe(field) + " cuts its prompt \"" + field.getPromptText() + "\"");
            }
        }
        if (node instanceof Axis<?> axis) {
            overlappingTicks(axis, found);
        }
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) {
                walk(child, found);
            }
        }
    }

    /** Whether a cell is a row of a table, list or tree (a combo box's button cell is not). */
    private static boolean inVirtualFlow(Node cell) {
        for (Node p = cell.getParent(); p != null; p = p.getParent()) {
            if (p instanceof VirtualFlow<?>) {
                return true;
            }
        }
        return false;
    }

    /** The text the skin draws: its Text child's, which it shortens with the ellipsis when the text does not fit. */
    private static String shownText(Labeled labeled) {
        for (Node child : labeled.getChildrenUnmodifiable()) {
            if (child instanceof Text text && child.isVisible()) {
                return text.getText();
            }
        }
        return null;
    }

    private static void overlappingTicks(Axis<?> axis, List<String> found) {
        List<Text> labels = new ArrayList<>();
        for (Node child : axis.getChildrenUnmodifiable()) {
            if (child instanceof Text text && text.isVisible() && !text.getText().isEmpty()) {
                labels.add(text);
            }
        }
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                Bounds a = labels.get(i).localToScene(labels.get(i).getLayoutBounds());
                Bounds b = labels.get(j).localToScene(labels.get(j).getLayoutBounds());
                if (a.intersects(b)) {
                    found.add(describe(axis) + " tick labels \"" + labels.get(i).getText() + "\" and \""
                            + labels.get(j).getText() + "\" overlap");
                }
            }
        }
    }

    private static String describe(Node node) {
        StringBuilder path = new StringBuilder(node.getClass().getSimpleName());
        if (node.getId() != null) {
            path.append('#').append(node.getId());
        }
        for (Node p = node.getParent(); p != null; p = p.getParent()) {
            if (p.getId() != null) {
                path.append(" in #").append(p.getId());
                break;
            }
        }
        return path.toString();
    }
}
