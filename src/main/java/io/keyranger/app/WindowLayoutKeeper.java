package io.keyranger.app;

import io.keyranger.profile.WindowLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.event.EventHandler;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.SplitPane;
import javafx.scene.input.MouseEvent;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import javafx.util.Duration;

/**
 * Puts the main window where {@link WindowPlacement} says, restores its split panes' dividers, and hands back its
 * layout to save: a second after it last moved, was resized or had a divider dragged, and when it closes.
 * Dividers keep their share of the pane through resizes. Only the
 * normal (not maximized) bounds are kept, so un-maximizing after a restart gives back the window the user had.
 */
final class WindowLayoutKeeper {
    private static final Duration QUIET = Duration.seconds(1);

    private final Stage stage;
    private final Map<String, SplitPane> splits;
    private final Consumer<WindowLayout> save;
    private final PauseTransition quiet = new PauseTransition(QUIET);
    private final InvalidationListener changed = obs -> quiet.playFromStart();
    private final List<Observable> watched = new ArrayList<>();
    private final EventHandler<WindowEvent> hiding = e -> saveIfChanged();
    /** Each split's divider where the user put it (or as restored): kept through resizes, which drift it. */
    private final Map<String, Double> intended = new LinkedHashMap<>();
    private final List<Runnable> unwatch = new ArrayList<>();
    private Rectangle2D normal;
    private WindowLayout saved;

    private WindowLayoutKeeper(Stage stage, Map<String, SplitPane> splits, WindowLayout saved,
                               Consumer<WindowLayout> save) {
        this.stage = stage;
        this.splits = splits;
        this.saved = saved;
        this.save = save;
        quiet.setOnFinished(e -> saveIfChanged());
    }

    /**
     * Sizes and places the stage (call before it is shown) and starts watching it.
     *
     * @param splits the split panes whose first divider is remembered, by name
     * @param saved  the layout remembered last time, or null
     * @param save   takes each changed layout, on the FX thread
     */
    static WindowLayoutKeeper attach(Stage stage, Map<String, SplitPane> splits, WindowLayout saved,
                                     Consumer<WindowLayout> save) {
        WindowLayoutKeeper keeper = new WindowLayoutKeeper(stage, splits, saved, save);
        keeper.place();
        keeper.watch();
        return keeper;
    }

    private void place() {
        List<Rectangle2D> screens = Screen.getScreens().stream().map(Screen::getVisualBounds).toList();
        WindowPlacement.Placement placement = WindowPlacement.place(Screen.getPrimary().getVisualBounds(), screens,
                saved);
        normal = placement.bounds();
        applyBounds();
        stage.setMaximized(placement.maximized());
        // some platforms size a window to its scene when it first shows, whatever was set before: set it again
        EventHandler<WindowEvent> shown = new EventHandler<>() {
            @Override
            public void handle(WindowEvent event) {
                stage.removeEventHandler(WindowEvent.WINDOW_SHOWN, this);
                if (!placement.maximized()) {
                    applyBounds();
                } else if (!stage.isMaximized()) {
                    stage.setMaximized(true);
                }
            }
        };
        stage.addEventHandler(WindowEvent.WINDOW_SHOWN, shown);
        splits.forEach((name, split) -> {
            if (!split.getDividers().isEmpty()) {
                double position = saved == null ? split.getDividerPositions()[0]
                        : saved.divider(name, split.getDividerPositions()[0]);
                intended.put(name, position);
                split.setDividerPositions(position);
            }
        });
    }

    private void applyBounds() {
        stage.setMaximized(false);
        stage.setX(normal.getMinX());
        stage.setY(normal.getMinY());
        stage.setWidth(normal.getWidth());
        stage.setHeight(normal.getHeight());
    }

    /**
     * A split pane spreads a change of its width over its items, so its divider drifts on the first layouts (and on
     * each resize); this puts it back where it is meant to be, and takes a new place only from the user's drag.
     */
    private void keepDivider(String name, SplitPane split) {
        InvalidationListener resized = obs -> {
            if (intended.containsKey(name)) {
                split.setDividerPositions(intended.get(name));
            }
        };
        EventHandler<MouseEvent> dropped = e -> {
            if (!split.getDividers().isEmpty()) {
                intended.put(name, split.getDividerPositions()[0]);
                quiet.playFromStart();
            }
        };
        split.widthProperty().addListener(resized);
        split.heightProperty().addListener(resized);
        split.addEventFilter(MouseEvent.MOUSE_RELEASED, dropped);
        unwatch.add(() -> {
            split.widthProperty().removeListener(resized);
            split.heightProperty().removeListener(resized);
            split.removeEventFilter(MouseEvent.MOUSE_RELEASED, dropped);
        });
    }

    private void watch() {
        watched.addAll(List.of(stage.xProperty(), stage.yProperty(), stage.widthProperty(), stage.heightProperty(),
                stage.maximizedProperty(), stage.iconifiedProperty()));
        watched.forEach(o -> o.addListener(changed));
        splits.forEach(this::keepDivider);
        // while the stage still shows, so that a resize in the last second before closing counts
        stage.addEventHandler(WindowEvent.WINDOW_HIDING, hiding);
    }

    /** The window's layout now; the normal bounds are the last seen while it was neither maximized nor iconified. */
    WindowLayout current() {
        if (stage.isShowing() && !stage.isMaximized() && !stage.isIconified()) {
            normal = new Rectangle2D(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight());
        }
        return new WindowLayout(normal.getMinX(), normal.getMinY(), normal.getWidth(), normal.getHeight(),
                stage.isMaximized(), intended);
    }

    private void saveIfChanged() {
        WindowLayout now = current();
        if (!now.equals(saved)) {
            saved = now;
            save.accept(now);
        }
    }

    /** Saves the layout as it is now and stops watching the stage (it may be shown again by another app instance). */
    void close() {
        quiet.stop();
        saveIfChanged();
        watched.forEach(o -> o.removeListener(changed));
        watched.clear();
        unwatch.forEach(Runnable::run);
        unwatch.clear();
        stage.removeEventHandler(WindowEvent.WINDOW_HIDING, hiding);
    }
}
