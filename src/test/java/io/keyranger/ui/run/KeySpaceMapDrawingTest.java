package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.support.Fx;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * How often the key-space map paints (TestFX, no Datastore: the tree is fed made-up node snapshots): a burst of tree
 * changes paints at most twice, the last state always; a hidden map paints nothing and catches up when shown; a
 * drawing equal to the last one leaves the canvas alone.
 */
class KeySpaceMapDrawingTest {
    private static final LiveTree TREE = new LiveTree();
    private static KeySpaceMap map;

    @BeforeAll
    static void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupSceneRoot(() -> {
            map = new KeySpaceMap(TREE.roots());
            StackPane root = new StackPane(map);
            root.setPrefSize(800, 240);
            return root;
        });
        FxToolkit.setupStage(stage -> {
            stage.setWidth(800);
            stage.setHeight(240);
            stage.show();
        });
        Fx.waitUntil(10, () -> map.getWidth() > 0);
    }

    @AfterAll
    static void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @Test
    void aBurstOfChangesPaintsAtMostTwiceAndEndsOnTheLastState() throws Exception {
        Fx.get(() -> {
            TREE.apply(List.of(node("r0", NodeStatus.RUNNING, 0), node("r1", NodeStatus.QUEUED, 0)));
            map.redraw();
            return null;
        });
        assertThat(Fx.get(() -> fillOf("r0"))).isEqualTo(MapLegend.RUNNING);
        assertThat(Fx.get(() -> fillOf("r1"))).isEqualTo(MapLegend.QUEUED);
        Thread.sleep(KeySpaceMap.MIN_INTERVAL_MILLIS + 50); // so that the burst's first change may draw at once
        long before = Fx.get(map::paints);
        long during = Fx.get(() -> {
            for (int i = 1; i <= 40; i++) { // forty ticks in one turn of the FX thread, the last one finishing r0
                TREE.apply(List.of(node("r0", i == 40 ? NodeStatus.DONE : NodeStatus.RUNNING, i * 10L)));
                map.requestRedraw();
            }
            return map.paints();
        });
        assertThat(during - before).as("paints in the burst itself").isLessThanOrEqualTo(1);
        Fx.waitUntil(5, () -> map.drawn().stream().anyMatch(d -> d.row() != null && d.row().id().equals("r0")
                && d.fill().equals(MapLegend.DONE)));
        Thread.sleep(2 * KeySpaceMap.MIN_INTERVAL_MILLIS);
        assertThat(Fx.get(map::paints) - before).as("paints for forty changes").isBetween(1L, 2L);
    }

    @Test
    void aHiddenMapPaintsNothingAndDrawsWhenShownAgain() throws Exception {
        Fx.get(() -> {
            TREE.apply(List.of(node("r2", NodeStatus.RUNNING, 5)));
            map.redraw();
            map.setVisible(false);
            return null;
        });
        long before = Fx.get(map::paints);
        for (int i = 0; i < 5; i++) {
            long entities = 100 + i;
            Fx.get(() -> {
                TREE.apply(List.of(node("r2", NodeStatus.FAILED, entities)));
                map.requestRedraw();
                return null;
            });
            Thread.sleep(KeySpaceMap.MIN_INTERVAL_MILLIS / 2);
        }
        Thread.sleep(2 * KeySpaceMap.MIN_INTERVAL_MILLIS);
        assertThat(Fx.get(map::paints)).as("paints while hidden").isEqualTo(before);
        Fx.get(() -> {
            map.setVisible(true);
            return null;
        });
        Fx.waitUntil(5, () -> map.paints() > before && map.drawn().stream().anyMatch(d -> d.row() != null
                && d.row().id().equals("r2") && d.fill().equals(MapLegend.FAILED)));
    }

    @Test
    void aDrawingEqualToTheLastOneLeavesTheCanvasAlone() {
        Fx.get(() -> {
            TREE.apply(List.of(node("r3", NodeStatus.QUEUED, 0)));
            map.redraw();
            return null;
        });
        long before = Fx.get(map::paints);
        List<KeySpaceMap.Drawn> drawn = new ArrayList<>(Fx.get(map::drawn));
        Fx.get(() -> {
            map.redraw();
            map.redraw();
            return null;
        });
        assertThat(Fx.get(map::paints)).isEqualTo(before);
        assertThat(Fx.get(map::drawn)).as("still hit-testable").isEqualTo(drawn);
        Fx.get(() -> {
            TREE.apply(List.of(node("r3", NodeStatus.CANCELLED, 0)));
            map.redraw();
            return null;
        });
        assertThat(Fx.get(map::paints)).as("a new colour paints").isEqualTo(before + 1);
        assertThat(Fx.get(() -> fillOf("r3"))).isEqualTo(MapLegend.CANCELLED);
    }

    private static Color fillOf(String id) {
        return map.drawn().stream().filter(d -> d.row() != null && d.row().id().equals(id)).findFirst().orElseThrow()
                .fill();
    }

    private static NodeSnapshot node(String id, NodeStatus status, long entities) {
        Key start = Key.newBuilder("test", "Account", id).build();
        return new NodeSnapshot("test", id, null, 0, start, true, null, null, status, entities / 10, entities,
                entities, 0, status == NodeStatus.FAILED ? "made up" : null, null, null);
    }
}
