package io.keyranger.support;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.chart.Axis;
import javafx.scene.chart.Chart;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Control;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.skin.NestedTableColumnHeader;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.layout.FlowPane;
import javafx.scene.shape.MoveTo;
import javafx.scene.shape.PathElement;
import javafx.scene.text.Text;

/**
 * What a window shows cut off: a label, button, check box, choice, column header or field error whose text the skin
 * shortened with an ellipsis, or whose text runs past the window's edge or is cut across by the clip of what holds it
 * (a column header half out of its table); wrapped text that leaves a count's number on another line than its name
 * ("deleted" / "0"); a label that draws a line outside its own bounds (over what lies below it); a row of buttons that
 * wraps one onto a second row ({@link #WRAPS} says a row does so by design); a list, chart or field cut short by the window's edge or by what holds it (a split
 * pane's side); a text field whose prompt does not fit, and chart tick labels that overlap. The rows of tables,
 * lists and trees are data, shortened on purpose with their whole value as a tooltip, and are not judged; text scrolled
 * wholly out of sight is not cut. Call on the FX thread after a layout pass.
 */
public final class CutOffs {
    /**
     * The style class of a table with a column for each property of its rows, which scrolls sideways by design: its
     * headers at the edges are not judged. A table of a fixed set of columns shows them all.
     */
    public static final String SCROLLS_SIDEWAYS = "scrolls-sideways";

    /**
     * The style class of a row of buttons that wraps as a group by design (a form's Save… and Load… below its job's
     * buttons); any other row of buttons keeps them on one row.
     */
    public static final String WRAPS = "wraps";

    /** A line of counts as the totals say them: "read 130   written 5   deleted 0" (prose is not judged). */
    private static final Pattern COUNTS = Pattern.compile("[^ ].*? [\\d,]+(   [^ ].*? [\\d,]+)*");

    /** A word, spaces and a number: a count as the totals say it. */
    private static final Pattern COUNT = Pattern.compile("\\p{L}[ \u00a0]+\\d");

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
            Text drawn = drawnText(labeled);
            if (drawn != null && !drawn.getText().isEmpty()) {
                String cut = cutBy(drawn);
                if (cut != null) {
                    found.add(describe(labeled) + " \"" + drawn.getText() + "\" is cut by " + cut);
                }
                String split = splitCount(drawn);
                if (split != null) {
                    found.add(describe(labeled) + " wraps \"" + split + "\" across two lines");
                }
                String spilled = spilledLine(labeled, drawn);
                if (spilled != null) {
                    found.add(describe(labeled) + " draws \"" + spilled + "\" outside its own bounds (over what "
                            + "lies beside it)");
                }
            }
        }
        if (node instanceof FlowPane row) {
            String wrapped = wrappedButtons(row);
            if (wrapped != null) {
                found.add(describe(row) + " puts " + wrapped + " on a row of its own");
            }
        }
        if ((node instanceof Control || node instanceof Chart) && !(node instanceof Labeled)) {
            String cut = controlCutBy(node);
            if (cut != null) {
                found.add(describe(node) + " is cut by " + cut);
            }
        }
        if (node instanceof TableColumnHeader header && !(node instanceof NestedTableColumnHeader)
                && header.getTableColumn() != null) {
            Node table = header.getTableColumn() instanceof TableColumn<?, ?> c ? c.getTableView()
                    : header.getTableColumn() instanceof TreeTableColumn<?, ?> t ? t.getTreeTableView() : null;
            if (table != null && !table.getStyleClass().contains(SCROLLS_SIDEWAYS)) {
                Bounds shown = table.localToScene(table.getLayoutBounds());
                Bounds at = header.localToScene(header.getLayoutBounds());
                if (at.getMinX() < shown.getMinX() - 1 || at.getMaxX() > shown.getMaxX() + 1) {
                    found.add("column \"" + header.getTableColumn().getText() + "\" of " + describe(table)
                            + " lies (partly) outside the table");
                }
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
    /** The text {@code labeled}'s skin draws (its text, or that text shortened with an ellipsis), or null. */
    public static String shownText(Labeled labeled) {
        Text text = drawnText(labeled);
        return text == null ? null : text.getText();
    }

    private static Text drawnText(Labeled labeled) {
        for (Node child : labeled.getChildrenUnmodifiable()) {
            if (child instanceof Text text && child.isVisible()) {
                return text;
            }
        }
        return null;
    }

    /**
     * What cuts the drawn text: the window's edge, or the clip of a node that holds it (a table's header row, a scroll
     * pane's viewport), when part of the text shows and part does not; null when it shows whole or not at all.
     */
    private static String cutBy(Text text) {
        Bounds drawn = text.localToScene(text.getLayoutBounds());
        Scene scene = text.getScene();
        if (scene != null && cuts(new BoundingBox(0, 0, scene.getWidth(), scene.getHeight()), drawn)) {
            return "the window's edge";
        }
        for (Node p = text.getParent(); p != null; p = p.getParent()) {
            if (p.getStyleClass().contains(SCROLLS_SIDEWAYS)) {
                return null;
            }
        }
        for (Node p = text.getParent(); p != null; p = p.getParent()) {
            if (p.getClip() != null && cuts(p.localToScene(p.getClip().getBoundsInParent()), drawn)) {
                return "the edge of " + describe(p);
            }
        }
        return null;
    }

    /**
     * The first line of a label's text that its skin draws outside the label (a fixed-height label given one line too
     * many, which then runs over the chart below it), or null when all of it lies inside.
     */
    private static String spilledLine(Labeled labeled, Text text) {
        Bounds own = labeled.localToScene(labeled.getLayoutBounds());
        Bounds drawn = text.localToScene(text.getLayoutBounds());
        if (drawn.getMaxY() <= own.getMaxY() + 1 && drawn.getMinY() >= own.getMinY() - 1
                && drawn.getMaxX() <= own.getMaxX() + 1 && drawn.getMinX() >= own.getMinX() - 1) {
            return null;
        }
        List<String> lines = text.getText().lines().toList();
        double lineHeight = text.getLayoutBounds().getHeight() / Math.max(1, lines.size());
        for (int i = 0; i < lines.size(); i++) {
            double bottom = drawn.getMinY() + (i + 1) * lineHeight;
            if (bottom > own.getMaxY() + 1 || drawn.getMinY() + i * lineHeight < own.getMinY() - 1) {
                return lines.get(i);
            }
        }
        return text.getText(); // too wide
    }

    /** The buttons a row of buttons wrapped below its first row ("Revert" alone under the others), or null. */
    private static String wrappedButtons(FlowPane row) {
        List<Node> shown = row.getChildren().stream().filter(n -> n.isVisible() && n.isManaged()).toList();
        if (row.getStyleClass().contains(WRAPS) || shown.stream().noneMatch(n -> n instanceof ButtonBase)) {
            return null;
        }
        double firstRow = shown.get(0).getBoundsInParent().getMinY();
        List<String> below = new ArrayList<>();
        for (Node n : shown) {
            if (n.getBoundsInParent().getMinY() > firstRow + n.getBoundsInParent().getHeight() / 2) {
                below.add(n instanceof Labeled l && l.getText() != null ? "\"" + l.getText() + "\"" : describe(n));
            }
        }
        return below.isEmpty() ? null : String.join(", ", below);
    }

    /**
     * What cuts a control (a list, a chart, a field) short: the window's edge, or the clip of what holds it (a split
     * pane's side, a tab's content) when part of it shows and part does not; null when it shows whole. A scroll pane's
     * viewport shows part of its content by design, and is not judged.
     */
    private static String controlCutBy(Node control) {
        Bounds at = control.localToScene(control.getLayoutBounds());
        if (at.getWidth() <= 0 || at.getHeight() <= 0 || inVirtualFlow(control)) {
            return null;
        }
        Scene scene = control.getScene();
        if (scene != null && cuts(new BoundingBox(0, 0, scene.getWidth(), scene.getHeight()), at)) {
            return "the window's edge";
        }
        for (Node p = control.getParent(); p != null; p = p.getParent()) {
            if (p.getStyleClass().contains(SCROLLS_SIDEWAYS) || p.getStyleClass().contains("viewport")
                    || p instanceof ScrollPane) {
                return null;
            }
            if (p.getClip() != null && cuts(p.localToScene(p.getClip().getBoundsInParent()), at)) {
                return "the edge of " + describe(p);
            }
        }
        return null;
    }

    /** Whether {@code area} shows part of {@code drawn} but not all of it (a pixel of slack for rounding). */
    private static boolean cuts(Bounds area, Bounds drawn) {
        boolean overlaps = drawn.getMaxX() > area.getMinX() + 1 && drawn.getMinX() < area.getMaxX() - 1
                && drawn.getMaxY() > area.getMinY() + 1 && drawn.getMinY() < area.getMaxY() - 1;
        boolean inside = drawn.getMinX() >= area.getMinX() - 1 && drawn.getMaxX() <= area.getMaxX() + 1
                && drawn.getMinY() >= area.getMinY() - 1 && drawn.getMaxY() <= area.getMaxY() + 1;
        return overlaps && !inside;
    }

    /** A word and the number after it ("deleted 0") that wrapping put on two lines, or null when none. */
    private static String splitCount(Text text) {
        if (text.getWrappingWidth() <= 0 || !text.getText().lines().allMatch(line -> COUNTS.matcher(line).matches())) {
            return null;
        }
        Matcher count = COUNT.matcher(text.getText());
        while (count.find()) {
            if (lineTop(text, count.start()) != lineTop(text, count.end() - 1)) {
                return count.group();
            }
        }
        return null;
    }

    private static double lineTop(Text text, int index) {
        PathElement[] caret = text.rangeShape(index, index + 1);
        return caret.length > 0 && caret[0] instanceof MoveTo move ? Math.round(move.getY()) : Double.NaN;
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
