package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.javafx.stage.WindowHelper;
import io.keyranger.support.Fx;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javafx.beans.value.ChangeListener;
import javafx.scene.Scene;
import javafx.scene.layout.Pane;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * The job list is read again when its window gets the focus back: once, however often the list's view left its scene
 * and came back (a tab's content is taken out and put back as tabs are rearranged), not once for each time it did.
 */
class JobListRefreshTest {
    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @Test
    void aWindowGettingTheFocusBackReadsTheListOnceHoweverOftenTheViewChangedScene() {
        AtomicInteger refreshes = new AtomicInteger();
        AtomicLong atFocusStart = new AtomicLong(-1);
        AtomicLong atFocusEnd = new AtomicLong(-1);
        Pane view = new Pane();
        StackPane root = new StackPane();
        Stage[] stages = new Stage[1];
        Fx.get(() -> {
            stages[0] = new Stage();
            stages[0].setScene(new Scene(root, 300, 200));
            // heard before any of the list's own listeners, and after all of them: what the focus gain itself did
            stages[0].focusedProperty().addListener((obs, was, focused) -> {
                if (focused) {
                    atFocusStart.set(refreshes.get());
                }
            });
            root.getChildren().add(view);
            JobListRefresh.attach(view, refreshes::incrementAndGet);
            stages[0].show();
            for (int i = 0; i < 5; i++) { // out of its scene and back, as a tab's content is when tabs move
                root.getChildren().remove(view);
                root.getChildren().add(view);
            }
            Scene other = new Scene(new StackPane(), 300, 200); // and into another scene of the window, and back
            Scene first = stages[0].getScene();
            ((StackPane) other.getRoot()).getChildren().add(view);
            stages[0].setScene(other);
            root.getChildren().add(view);
            stages[0].setScene(first);
            ChangeListener<Boolean> last = (obs, was, focused) -> {
                if (focused) {
                    atFocusEnd.set(refreshes.get());
                }
            };
            stages[0].focusedProperty().addListener(last);
            // the window loses the focus and gets it back as the platform says so (the headless platform keeps every
            // window it shows focused)
            WindowHelper.setFocused(stages[0], false);
            return null;
        });
        Fx.waitUntil(10, () -> !stages[0].isFocused());
        atFocusStart.set(-1);
        atFocusEnd.set(-1);
        Fx.on(() -> WindowHelper.setFocused(stages[0], true));
        Fx.waitUntil(10, () -> stages[0].isFocused() && atFocusEnd.get() >= 0);
        assertThat(atFocusEnd.get() - atFocusStart.get()).as("listings made as the window got the focus back")
                .isEqualTo(1);
        Fx.on(() -> stages[0].close());
    }
}
