package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.kinds.KindItem;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

/**
 * Small things of the browser that said or did what the user did not ask for: the Properties panel's "Select a kind"
 * while one is selected, a failed query that a click on the selected kind left on show, and a Save that moved the
 * selection to row 1.
 */
class BrowserSmallMendsTest extends DemoWindowTest {

    @Test
    void aSelectedKindWithoutPropertiesIsNotAskedToBeSelected() {
        Datastore demo = demoDatastore();
        demo.put(Entity.newBuilder(demo.newKeyFactory().setKind("Bare").newKey(1)).build());
        Fx.on(() -> ((KeyRangerApp) app).model().openTypedKind("Bare"));
        Fx.waitUntil(30, () -> title().startsWith("Bare:"));
        ListView<?> properties = robot.lookup("#propertyList").queryListView();
        Fx.waitUntil(10, () -> properties.getItems().isEmpty());
        assertThat(Fx.get(() -> ((Label) properties.getPlaceholder()).getText()))
                .isEqualTo("No properties listed for this kind");
    }

    @Test
    void aClickOnTheSelectedKindClearsAFailedQuery() {
        setText("#gqlQuery", "SELECT * FROM Account WHERE");
        robot.clickOn("#gqlQuery").type(javafx.scene.input.KeyCode.ENTER);
        Fx.waitUntil(10, () -> !labelText("#gqlError").isEmpty());
        robot.clickOn(robot.lookup("#kindList .list-cell").match(n -> ((ListCell<?>) n).getItem() instanceof KindItem k
                && k.name().equals("Account")).queryAs(Node.class));
        Fx.waitUntil(10, () -> title().equals("Account: page 1, rows 1–50"));
        assertThat(labelText("#gqlError")).isEmpty();
        assertThat(Fx.get(() -> robot.lookup("#gqlQuery").queryTextInputControl().getText()))
                .isEqualTo("SELECT * FROM Account");
    }

    @Test
    void afterSaveTheSavedRowStaysSelected() {
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Key chosen = Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(5);
            return table.getItems().get(5).getKey();
        });
        robot.clickOn("#editEntity");
        Fx.waitUntil(10, () -> robot.lookup("#prop-1-name").tryQuery().isPresent());
        setText("#prop-1-value", "4242");
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> labelText("#editStatus").startsWith("Done"));
        Fx.waitUntil(30, () -> table.getItems().stream().anyMatch(e -> e.getKey().equals(chosen)
                && e.contains("balance") && e.getLong("balance") == 4242));
        Fx.waitUntil(5, () -> table.getSelectionModel().getSelectedItem() != null);
        assertThat(Fx.get(() -> table.getSelectionModel().getSelectedItem().getKey())).isEqualTo(chosen);
    }
}
