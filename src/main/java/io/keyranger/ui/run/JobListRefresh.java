package io.keyranger.ui.run;

import io.keyranger.ui.common.Visibility;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.value.ChangeListener;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * When the Run tab's job list is read again without Refresh: as the tab comes into sight (the window shown again, the
 * tab selected), as the window gets the focus back, and every {@link #EVERY} while the tab is in sight, so that jobs
 * started elsewhere (the CLI, another window, Beam) show up. A listing is one query of the job store, run in the
 * background; none is made while the tab is out of sight. Whether it is in sight is looked at twice a second (a walk up
 * the view's parents): a hidden tab's content does not say when its tab is selected.
 */
final class JobListRefresh {
    /** How often the list is read again while in sight. */
    static final Duration EVERY = Duration.seconds(5);
    private static final Duration LOOK = Duration.millis(500);

    private final Node view;
    private final Runnable refresh;
    private boolean wasInSight;
    private long lastRefresh;
    /** The one focus listener, on the window that holds the view now (and on no other). */
    private final ChangeListener<Boolean> onFocus = (obs, was, focused) -> {
        if (focused && inSight()) {
            refreshNow();
        }
    };
    /** The one listener on the view's scene for the window it is shown in. */
    private final ChangeListener<Window> onWindow = (obs, oldWindow, window) -> watchFocus(window);
    private Window watched;

    private JobListRefresh(Node view, Runnable refresh) {
        this.view = view;
        this.refresh = refresh;
    }

    /** Reads the list again through {@code refresh} when {@code view} comes into sight, and while it is in sight. */
    static void attach(Node view, Runnable refresh) {
        JobListRefresh watch = new JobListRefresh(view, refresh);
        Timeline look = new Timeline(new KeyFrame(LOOK, e -> watch.look()));
        look.setCycleCount(Timeline.INDEFINITE);
        view.sceneProperty().addListener((obs, oldScene, scene) -> {
            if (scene == null) {
                look.stop();
            } else {
                look.play();
            }
            watch.watchScene(oldScene, scene);
        });
        if (view.getScene() != null) {
            look.play();
            watch.watchScene(null, view.getScene());
        }
    }

    private void look() {
        boolean inSight = inSight();
        if (inSight && (!wasInSight || System.nanoTime() - lastRefresh >= EVERY.toMillis() * 1_000_000L)) {
            refreshNow();
        }
        wasInSight = inSight;
    }

    /** Moves the window listener from the scene the view left to the one it is in, and the focus listener with it. */
    private void watchScene(Scene oldScene, Scene scene) {
        if (oldScene != null) {
            oldScene.windowProperty().removeListener(onWindow);
        }
        if (scene != null) {
            scene.windowProperty().addListener(onWindow);
        }
        watchFocus(scene == null ? null : scene.getWindow());
    }

    /** Listens to the focus of {@code window} alone: the view's scene changes often, the listener stays one. */
    private void watchFocus(Window window) {
        if (window == watched) {
            return;
        }
        if (watched != null) {
            watched.focusedProperty().removeListener(onFocus);
        }
        watched = window;
        if (window != null) {
            window.focusedProperty().addListener(onFocus);
        }
    }

    private void refreshNow() {
        lastRefresh = System.nanoTime();
        refresh.run();
    }

    private boolean inSight() {
        Window window = view.getScene() == null ? null : view.getScene().getWindow();
        return window != null && window.isShowing() && Visibility.visibleWithParents(view);
    }
}
