package io.keyranger.ui.shards;

import io.keyranger.keys.KeyFormat;
import io.keyranger.sharding.PlannedRange;
import io.keyranger.sharding.ShardPlan;
import io.keyranger.sharding.ShardPreview;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.util.Duration;

/**
 * A plan as a map of the kind's key space: one band for the scatter-sampled ranges and one for the lexicographic
 * ones, each range as wide as its share of the kind (its exact count once counted, else its estimate). Balanced ranges
 * are bands of equal width; an unbalanced plan shows one wide band among slivers. Hover shows a range's keys and
 * sizes.
 */
public final class PlanMap extends Region {
    private static final Color[] SHADES = {Color.web("#0969da"), Color.web("#54aeff")};
    private static final double ROW = 34;
    private static final double GAP = 22;

    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private final List<Drawn> drawn = new ArrayList<>();
    private ShardPreview preview;

    /**
     * A range as drawn.
     *
     * @param plan  "scatter" or "lexicographic"
     * @param range the range
     * @param x     left edge in pixels
     * @param width width in pixels
     * @param y     top edge
     */
    public record Drawn(String plan, PlannedRange range, double x, double width, double y) {
    }

    public PlanMap() {
        setId("planMap");
        getChildren().add(canvas);
        setMinHeight(2 * (ROW + GAP));
        setPrefHeight(2 * (ROW + GAP));
        tip.setShowDelay(Duration.millis(150));
        Tooltip.install(canvas, tip);
        canvas.setOnMouseMoved(e -> tip.setText(drawn.stream()
                .filter(d -> e.getX() >= d.x() && e.getX() < d.x() + d.width() && e.getY() >= d.y()
                        && e.getY() < d.y() + ROW).findFirst().map(PlanMap::describe).orElse("")));
    }

    public void show(ShardPreview preview) {
        this.preview = preview;
        redraw();
    }

    public List<Drawn> drawn() {
        return List.copyOf(drawn);
    }

    @Override
    protected void layoutChildren() {
        double w = snapSizeX(getWidth());
        double h = snapSizeY(getHeight());
        if (canvas.getWidth() != w || canvas.getHeight() != h) {
            canvas.setWidth(w);
            canvas.setHeight(h);
            redraw();
        }
    }

    private void redraw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        drawn.clear();
        if (preview == null || canvas.getWidth() <= 0) {
            return;
        }
        band(g, "scatter", preview.scatter(), 0);
        band(g, "lexicographic", preview.lexicographic(), ROW + GAP);
    }

    private void band(GraphicsContext g, String name, ShardPlan plan, double top) {
        double width = canvas.getWidth();
        g.setFill(Color.GRAY);
        g.fillText(name + " plan: " + plan.ranges().size() + " ranges" + (plan.hasExactCounts() ? ", exact counts"
                : ", estimated sizes"), 2, top + 12);
        double y = top + 16;
        double total = plan.ranges().stream().mapToDouble(PlanMap::size).sum();
        double x = 0;
        int i = 0;
        for (PlannedRange range : plan.ranges()) {
            double w = total <= 0 ? width / plan.ranges().size() : width * size(range) / total;
            g.setFill(SHADES[i++ % 2]);
            g.fillRect(x, y, Math.max(w, 0.5), ROW - 16);
            drawn.add(new Drawn(name, range, x, w, y));
            x += w;
        }
    }

    private static double size(PlannedRange range) {
        return range.exact() != null ? range.exact() : range.estimated();
    }

    static String describe(Drawn d) {
        PlannedRange r = d.range();
        return d.plan() + " range " + r.index() + "\nfrom " + (r.range().start() == null ? "the first key"
                : KeyFormat.format(r.range().start())) + "\nto " + (r.range().end() == null ? "the last key"
                : "before " + KeyFormat.format(r.range().end())) + String.format("%n%,d estimated", r.estimated())
                + (r.exact() == null ? "" : String.format(", %,d exact", r.exact()));
    }
}
