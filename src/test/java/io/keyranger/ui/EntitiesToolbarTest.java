package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * The Entities tab's edit bar at a laptop's window size with a long refusal beside it (an Undo left alone because
 * the entity was written again elsewhere): New, Edit, Delete, Undo and Redo keep their words, the message gives way
 * and reads whole in its tooltip.
 */
class EntitiesToolbarTest extends DemoWindowTest {

    @Test
    void aLongRefusalGivesWayToTheButtonsAndReadsWholeInItsTooltip() {
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.on(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Entity first = Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(0);
            return table.getSelectionModel().getSelectedItem();
        });
        robot.clickOn("#deleteEntities");
        Fx.waitUntil(10, () -> robot.lookup(".dialog-pane").tryQuery().isPresent());
        robot.clickOn(Fx.get(() -> robot.lookup(".dialog-pane").queryAs(DialogPane.class)
                .lookupButton(ButtonType.OK)));
        Fx.waitUntil(20, () -> labelText("#editStatus").startsWith("Done:"));
        Datastore demo = demoDatastore();
        demo.put(Entity.newBuilder(first).set("balance", -1L).build()); // written again elsewhere
        robot.clickOn("#undoEdit");
        Fx.waitUntil(20, () -> labelText("#editStatus").startsWith("Undo is off:"));
        String message = labelText("#editStatus");
        assertThat(message.length()).isGreaterThan(120);

        for (String id : List.of("#newEntity", "#editEntity", "#deleteEntities", "#undoEdit", "#redoEdit")) {
            Button button = robot.lookup(id).queryButton();
            assertThat(Fx.get(() -> ((Text) button.lookup(".text")).getText())).as(id + " keeps its words")
                    .isEqualTo(Fx.get(button::getText));
        }
        Label status = robot.lookup("#editStatus").queryAs(Label.class);
        assertThat(Fx.get(() -> status.localToScene(status.getBoundsInLocal()).getMaxX()))
                .as("the message stays inside the window").isLessThanOrEqualTo(Fx.get(() -> stage.getScene()
                        .getWidth()));
        robot.moveTo(status);
        Fx.waitUntil(5, () -> status.getTooltip() != null);
        assertThat(Fx.get(() -> status.getTooltip().getText())).isEqualTo(message);
    }

    @Test
    void aQuerysLongTitleGivesWayToPreviousAndNext() {
        Stage stage = FxToolkit.toolkitContext().getRegisteredStage();
        Fx.on(() -> {
            stage.setMaximized(false);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        Fx.on(() -> robot.lookup("#gqlQuery").queryTextInputControl().setText(
                "SELECT * FROM Account WHERE tier = 'pro' AND balance > 5000 ORDER BY balance DESC"));
        robot.clickOn("#runQuery");
        Fx.waitUntil(20, () -> labelText("#pageTitle").contains("(query)"));
        Fx.waitUntil(20, () -> !Fx.get(() -> robot.lookup("#entityTable").queryTableView().getItems().isEmpty()));
        for (String id : List.of("#previousPage", "#nextPage")) {
            Button button = robot.lookup(id).queryButton();
            assertThat(Fx.get(() -> ((Text) button.lookup(".text")).getText())).as(id + " keeps its words")
                    .isEqualTo(Fx.get(button::getText));
        }
    }
}
