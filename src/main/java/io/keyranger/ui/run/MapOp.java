package io.keyranger.ui.run;

import java.util.List;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

/**
 * One drawing step of the key-space map, in pixels. The map compares a drawing's steps with the last one's and paints
 * only when they differ.
 *
 * @param kind  FILL, EDGE (a vertical line), OUTLINE, TEXT, or SIZE (the canvas size, never painted)
 * @param x     left
 * @param y     top
 * @param w     width (for TEXT, the most it may take)
 * @param h     height
 * @param color fill or stroke
 * @param text  for TEXT
 */
record MapOp(int kind, double x, double y, double w, double h, Color color, String text) {
    static final int FILL = 0;
    static final int EDGE = 1;
    static final int OUTLINE = 2;
    static final int TEXT = 3;
    static final int SIZE = 4;

    /** Clears the canvas and paints the steps in order. */
    static void paintAll(GraphicsContext g, List<MapOp> ops, double width, double height) {
        g.clearRect(0, 0, width, height);
        for (MapOp op : ops) {
            switch (op.kind()) {
                case FILL -> {
                    g.setFill(op.color());
                    g.fillRect(op.x(), op.y(), op.w(), op.h());
                }
                case EDGE -> {
                    g.setStroke(op.color());
                    g.setLineWidth(1);
                    g.strokeLine(op.x(), op.y(), op.x(), op.y() + op.h());
                }
                case OUTLINE -> {
                    g.setStroke(op.color());
                    g.setLineWidth(2);
                    g.strokeRect(op.x(), op.y(), op.w(), op.h());
                }
                case TEXT -> {
                    g.setFill(op.color());
                    g.fillText(op.text(), op.x(), op.y(), op.w());
                }
                default -> { } // SIZE: only there so that a resized canvas never counts as unchanged
            }
        }
    }
}
