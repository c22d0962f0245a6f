package io.keyranger.ui.run;

import com.google.cloud.datastore.Key;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.ui.common.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.animation.AnimationTimer;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a made-up job in an off-screen Run tab, one small step per pulse, right after the window opens. Without it the
 * first real job pays JavaFX's cold start (class loading, CSS matching, skins, interpreted code) in the pulse that
 * shows its first rows: a 200-400 ms stall in RunTabResponsivenessBenchmark. With it (and {@link RowBacklog} pacing the
 * first rows) the longest pulse gap of a job fell under 100 ms. The warm-up's own dearest pulse, the first row any tree
 * builds (about 150 ms here), falls in the first seconds after start-up instead of in the middle of a job.
 */
public final class RunTabWarmup extends AnimationTimer {
    private static final int ROOTS = 8;
    private static final int ROUNDS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(RunTabWarmup.class);
    private final List<Runnable> steps = new ArrayList<>();
    private final Consumer<Result> done;
    private final long startedAt = System.nanoTime();
    private int next;
    private final Scene real;
    private RunView target;
    private int inPlaceSteps;

    private RunTabWarmup(List<String> stylesheets, Scene real, Consumer<Result> done) {
        this.done = done;
        this.real = real;
        RunViewModel model = new RunViewModel(task -> { }, message -> { });
        RunView view = new RunView(model);
        Scene scene = new Scene(view, 1100, 700);
        scene.getStylesheets().setAll(stylesheets);
        Runnable layout = () -> {
            view.applyCss();
            view.layout();
        };
        // styles and skins one control at a time, innermost first, so that no pulse builds the whole tab
        List<Node> nodes = new ArrayList<>();
        collect(view, nodes);
        for (Node node : nodes) {
            steps.add(() -> {
                node.applyCss();
                if (node instanceof Parent parent) {
                    parent.layout();
                }
            });
        }
        steps.add(layout);
        for (int round = 0; round < ROUNDS; round++) {
            int r = round;
            for (int i = 0; i < ROOTS; i++) {
                String id = "r" + i;
                steps.add(() -> {
                    model.tree().apply(started(id, r));
                    model.treeChanged(); // the map draws (in this scene of no window) as it would in the window
                    layout.run();
                });
            }
            for (int i = 0; i < ROOTS; i++) {
                String id = "r" + i;
                steps.add(() -> {
                    model.tree().apply(split(id, r));
                    model.treeChanged();
                    model.throughput().add(new ThroughputPoint(model.throughput().size(), 100.0 * r));
                    layout.run();
                });
            }
            steps.add(() -> {
                List<NodeSnapshot> finished = new ArrayList<>();
                for (int i = 0; i < ROOTS; i++) {
                    finished.add(node("r" + i + ".0", "r" + i, 1, NodeStatus.DONE, r + 1));
                    finished.add(node("r" + i + ".1", "r" + i, 1, NodeStatus.FAILED, r + 1));
                }
                model.tree().apply(finished);
                model.treeChanged();
                layout.run();
            });
            steps.add(() -> view.snapshot(null, null));
            steps.add(model::clearTree);
        }
        if (real != null) {
            inPlace();
        }
    }

    /**
     * The same rows once more in the window's own Run tab while it is hidden behind another tab. The off-screen tab
     * above warms class loading and compiled code, but styles are matched and cached per scene and per place in it,
     * and a table makes its cells once: without this the first job's first rows and first split paid that in the
     * window (62-65 ms pulse gaps 0.6 s and 2.8 s into the first 100,000-entity job, none in later jobs). Each step
     * first checks that the tab is still hidden and idle; if it is not (someone opened the tab, a job started), the
     * made-up rows go and the warm-up ends.
     */
    private void inPlace() {
        steps.add(() -> {
            Node node = real.lookup("#runView");
            if (node instanceof RunView view && idleAndHidden(view)) {
                target = view;
            }
        });
        for (int round = 0; round < ROUNDS; round++) {
            int r = round;
            for (int i = 0; i < ROOTS; i++) {
                String id = "r" + i;
                inPlaceStep(model -> model.tree().apply(started(id, r)));
            }
            for (int i = 0; i < ROOTS; i++) {
                String id = "r" + i;
                inPlaceStep(model -> model.tree().apply(split(id, r)));
            }
            inPlaceStep(RunViewModel::clearTree);
        }
        steps.add(() -> {
            if (target != null) {
                target.resetDividers(); // laid out hidden, at the size the tab had then: dividers as new
            }
        });
    }

    private void inPlaceStep(Consumer<RunViewModel> change) {
        steps.add(() -> {
            RunView view = target;
            if (view == null) {
                return;
            }
            RunViewModel model = view.model();
            if (!idleAndHidden(view)) {
                target = null;
                if (!model.isRunning() && model.status().showsNoJob()) { // else what came since cleared it
                    model.clearTree();
                }
                view.resetDividers();
                return;
            }
            change.accept(model);
            view.applyCss();
            view.layout();
            inPlaceSteps++;
        });
    }

    private static boolean idleAndHidden(RunView view) {
        // never over a job the tab shows (its clearing would leave its summary beside an empty tree)
        return !view.model().isRunning() && view.model().status().showsNoJob()
                && !Visibility.visibleWithParents(view);
    }

    /** A planned range that started. */
    private static List<NodeSnapshot> started(String id, long round) {
        return List.of(node(id, null, 0, NodeStatus.RUNNING, round));
    }

    /** The range split: its halves, one running, one queued, and a split of the running half. */
    private static List<NodeSnapshot> split(String id, long round) {
        return List.of(node(id, null, 0, NodeStatus.SPLIT, round), node(id + ".0", id, 1, NodeStatus.RUNNING, round),
                node(id + ".1", id, 1, NodeStatus.QUEUED, round), node(id + ".0.0", id + ".0", 2, NodeStatus.QUEUED,
                        round));
    }

    private static void collect(Node node, List<Node> into) {
        if (node instanceof SplitPane split) {
            split.getItems().forEach(item -> collect(item, into));
        } else if (node instanceof Parent parent) {
            parent.getChildrenUnmodifiable().forEach(child -> collect(child, into));
        }
        into.add(node);
    }

    /**
     * Starts the warm-up on the FX thread; it runs one step per pulse and then lets go of its off-screen view.
     *
     * @param stylesheets the window's stylesheets, so the warm-up matches the styles the real tab uses
     * @param done        told how it went when it ends
     */
    public static void start(List<String> stylesheets, Consumer<Result> done) {
        new RunTabWarmup(stylesheets, null, done).start();
    }

    /**
     * How a warm-up went.
     *
     * @param millis       its wall time
     * @param inPlaceSteps how many made-up changes it showed in the window's own (hidden) Run tab: none if the tab was
     *                     on screen or a job ran
     */
    public record Result(long millis, int inPlaceSteps) {
    }

    /**
     * As {@link #start(List, Consumer)}, then once more in the window's own Run tab (id {@code runView}) while another
     * tab hides it and no job runs.
     */
    public static void start(Scene window, Consumer<Result> done) {
        new RunTabWarmup(window.getStylesheets(), window, done).start();
    }

    @Override
    public void handle(long now) {
        if (next < steps.size()) {
            long t = System.nanoTime();
            steps.get(next++).run();
            long millis = (System.nanoTime() - t) / 1_000_000;
            if (millis > 20) {
                LOG.debug("warm-up step {} of {}: {} ms", next - 1, steps.size(), millis);
            }
            return;
        }
        stop();
        steps.clear();
        done.accept(new Result((System.nanoTime() - startedAt) / 1_000_000, inPlaceSteps));
    }

    private static NodeSnapshot node(String id, String parentId, int depth, NodeStatus status, long pages) {
        Key start = Key.newBuilder("warm-up", "Warmup", id + "-" + pages).build();
        return new NodeSnapshot("warm-up", id, parentId, depth, start, true, null, null, status, pages, pages * 100,
                pages * 200, (int) pages % 2, status == NodeStatus.FAILED ? "warm-up" : null, null, null);
    }
}
