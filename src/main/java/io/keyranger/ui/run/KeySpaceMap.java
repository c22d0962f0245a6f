package io.keyranger.ui.run;

import io.keyranger.job.NodeStatus;
import io.keyranger.ui.common.Visibility;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.animation.Animation;
import javafx.animation.PauseTransition;
import javafx.beans.InvalidationListener;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.util.Duration;

/**
 * The job as an icicle chart of its key space: the job on top, its planned ranges below, each split's halves below
 * the range they split from; widths are shares of the job's entities ({@link KeySpaceLayout}), colours are statuses,
 * a running range fills as it goes. Hover shows a range's keys, entities, pages, retries and failure; a click selects
 * it (in the tree table too); the wheel zooms around the pointer, a drag pans, a double click zooms out. Drawn on one
 * canvas: when the view moves, and when the tree changed (the coalesced feed) at most four times a second, only while
 * shown, and only if a shape moved by a pixel or changed colour; ranges narrower than a pixel share one pixel column
 * per row, so thousands of ranges stay legible.
 */
public final class KeySpaceMap extends Region {
    private static final Color RUNNING_REST = MapLegend.RUNNING.deriveColor(0, 0.35, 1.35, 1);
    private static final Color OWN = MapLegend.DONE.deriveColor(0, 0.5, 1.25, 1);
    /** The map draws at most this often while a job runs (the table's feed ticks every 100 ms). */
    static final long MIN_INTERVAL_MILLIS = 250;
    private static final double MAX_ROW = 40;
    private static final double MIN_ROW = 6;

    private final ObservableList<NodeRow> roots;
    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private final List<Drawn> drawn = new ArrayList<>();
    private Consumer<NodeRow> onSelect = row -> { };
    private NodeRow highlighted;
    private final MapViewport viewport = new MapViewport();
    private final PauseTransition pending = new PauseTransition();
    private long lastDrawNanos = System.nanoTime() - MIN_INTERVAL_MILLIS * 1_000_000;
    private List<MapOp> lastOps = List.of();
    private boolean stale;
    private long paints;
    private final List<Node> watched = new ArrayList<>();
    private final InvalidationListener onShown = o -> {
        if (stale) {
            requestRedraw();
        }
    };

    /**
     * A band as last drawn, in pixels.
     *
     * @param row    the node (null for the job's band)
     * @param x      left edge
     * @param y      top edge
     * @param width  width
     * @param height height
     * @param fill   its status colour
     */
    public record Drawn(NodeRow row, double x, double y, double width, double height, Color fill) {
        boolean contains(double px, double py) {
            return px >= x && px < x + width && py >= y && py < y + height;
        }
    }

    public KeySpaceMap(ObservableList<NodeRow> roots) {
        this.roots = roots;
        setId("keySpaceMap");
        getChildren().add(canvas);
        setMinSize(120, 60);
        setPrefSize(400, 180);
        pending.setOnFinished(e -> redraw());
        sceneProperty().addListener((obs, old, scene) -> watchAncestors());
        tip.setShowDelay(Duration.millis(150));
        tip.setShowDuration(Duration.seconds(30));
        Tooltip.install(canvas, tip);
        canvas.setOnMouseMoved(e -> {
            Drawn hit = hit(e.getX(), e.getY());
            tip.setText(hit == null ? "" : MapLegend.describe(hit.row()));
        });
        canvas.setOnMouseClicked(e -> {
            if (e.getButton() != MouseButton.PRIMARY || !e.isStillSincePress()) {
                return;
            }
            if (e.getClickCount() == 2) {
                viewport.reset();
                redraw();
                return;
            }
            Drawn hit = hit(e.getX(), e.getY());
            if (hit != null && hit.row() != null) {
                highlight(hit.row());
                onSelect.accept(hit.row());
            }
        });
        canvas.setOnScroll(e -> {
            if (viewport.zoomAt(e.getX(), canvas.getWidth(), e.getDeltaY())) {
                redraw();
            }
        });
        canvas.setOnMousePressed(e -> viewport.press(e.getX()));
        canvas.setOnMouseDragged(e -> {
            if (viewport.drag(e.getX(), canvas.getWidth())) {
                redraw();
            }
        });
    }

    /** Who hears a click on a range (the tree table selects it). */
    public void setOnSelect(Consumer<NodeRow> onSelect) {
        this.onSelect = onSelect;
    }

    /** Outlines one range (the tree table's selection), or none. */
    public void highlight(NodeRow row) {
        if (row != highlighted) {
            highlighted = row;
            redraw();
        }
    }

    /** The outlined range, or null. */
    public NodeRow highlighted() {
        return highlighted;
    }

    /** The bands as last drawn, for tests and for hit-testing. */
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

    /**
     * Asks for the map to be drawn again after the tree changed: at once if the last drawing is older than
     * {@link #MIN_INTERVAL_MILLIS}, else when that much time has passed (one drawing stands for every change in
     * between). The table takes the feed ten times a second; the map, which a person reads as a picture, at most four.
     */
    public void requestRedraw() {
        if (pending.getStatus() == Animation.Status.RUNNING) {
            return;
        }
        long sinceMillis = (System.nanoTime() - lastDrawNanos) / 1_000_000;
        if (sinceMillis >= MIN_INTERVAL_MILLIS) {
            redraw();
        } else {
            pending.setDuration(Duration.millis(MIN_INTERVAL_MILLIS - sinceMillis));
            pending.playFromStart();
        }
    }

    /** How many times the canvas was painted (a drawing whose shapes equal the last one's paints nothing). */
    public long paints() {
        return paints;
    }

    /**
     * Lays the tree out again and draws it, now (the view moved, or the throttle's time came). Nothing is drawn while
     * the map is hidden (another tab, a collapsed pane): it draws when it shows again. Shapes snap to whole pixels, and
     * a drawing whose shapes equal the last one's leaves the canvas alone.
     */
    public void redraw() {
        pending.stop();
        if (!showing()) {
            stale = true;
            return;
        }
        stale = false;
        lastDrawNanos = System.nanoTime();
        double width = canvas.getWidth();
        double height = canvas.getHeight();
        drawn.clear();
        List<MapOp> ops = new ArrayList<>();
        List<KeySpaceLayout.Band> bands = KeySpaceLayout.layout(roots);
        if (!bands.isEmpty() && width > 0 && height > 0) {
            shapes(bands, width, height, ops);
        }
        ops.add(new MapOp(MapOp.SIZE, 0, 0, width, height, null, null));
        if (ops.equals(lastOps)) {
            return;
        }
        lastOps = ops;
        paint(ops, width, height);
    }

    private void shapes(List<KeySpaceLayout.Band> bands, double width, double height, List<MapOp> ops) {
        int depth = bands.stream().mapToInt(KeySpaceLayout.Band::depth).max().orElse(0);
        double row = Math.floor(Math.max(MIN_ROW, Math.min(MAX_ROW, height / (depth + 1))));
        double scale = width * viewport.zoom();
        Map<Integer, Long> sliverAt = new HashMap<>(); // per depth: the pixel column last used
        for (KeySpaceLayout.Band band : bands) {
            double left = (band.from() - viewport.offset()) * scale;
            double right = (band.to() - viewport.offset()) * scale;
            if (right < 0 || left > width) {
                continue;
            }
            double y = Math.min(band.depth() * row, height - row);
            double x = Math.round(left);
            double w = Math.round(right) - x;
            if (w < 1 && !band.own()) {
                // a sliver (an empty or tiny range): one pixel column per row stands for all the slivers in it
                long column = (long) Math.floor(left);
                Color fill = MapLegend.colour(band.status());
                if (!Long.valueOf(column).equals(sliverAt.put(band.depth(), column))) {
                    ops.add(new MapOp(MapOp.FILL, column, y, 1, row - 1, fill, null));
                }
                drawn.add(new Drawn(band.row(), column, y, 1, row - 1, fill));
                continue;
            }
            if (w < 1) {
                continue;
            }
            if (band.own()) {
                // what a split range committed itself, under it beside its halves
                ops.add(new MapOp(MapOp.FILL, x, y, w, row - 1, OWN, null));
                continue;
            }
            Color fill = MapLegend.colour(band.status());
            boolean running = band.status() == NodeStatus.RUNNING;
            ops.add(new MapOp(MapOp.FILL, x, y, w, row - 1, running ? RUNNING_REST : fill, null));
            double done = Math.round(w * band.progress());
            if (running && done > 0) {
                ops.add(new MapOp(MapOp.FILL, x, y, done, row - 1, fill, null));
            }
            if (w >= 3) {
                ops.add(new MapOp(MapOp.EDGE, x + w - 0.5, y, 0, row - 1, Color.WHITE, null));
            }
            if (band.row() != null && band.row() == highlighted) {
                ops.add(new MapOp(MapOp.OUTLINE, x + 1, y + 1, Math.max(1, w - 2), row - 3, Color.BLACK, null));
            }
            if (w > 46 && row >= 14) {
                ops.add(new MapOp(MapOp.TEXT, x + 3, y + row - 8, w - 6, 0, Color.WHITE,
                        band.row() == null ? "job" : band.row().id()));
            }
            drawn.add(new Drawn(band.row(), x, y, w, row - 1, fill));
        }
    }

    private void paint(List<MapOp> ops, double width, double height) {
        paints++;
        MapOp.paintAll(canvas.getGraphicsContext2D(), ops, width, height);
    }

    /**
     * Whether the map is on screen: in a scene whose window shows (or in a scene of no window, which only a snapshot
     * can show: the start-up warm-up draws there), it and every parent visible (a hidden tab's content is not).
     */
    private boolean showing() {
        if (getScene() == null || getScene().getWindow() != null && !getScene().getWindow().isShowing()) {
            return false;
        }
        return Visibility.visibleWithParents(this);
    }

    /** Watches this map's and its parents' visibility, so that a map hidden while the tree changed draws on showing. */
    private void watchAncestors() {
        watched.forEach(node -> node.visibleProperty().removeListener(onShown));
        watched.clear();
        for (Node node = this; node != null; node = node.getParent()) {
            node.visibleProperty().addListener(onShown);
            watched.add(node);
        }
    }


    private Drawn hit(double x, double y) {
        for (int i = drawn.size() - 1; i >= 0; i--) {
            if (drawn.get(i).contains(x, y)) {
                return drawn.get(i);
            }
        }
        return null;
    }
}
