package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Value;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import java.util.List;
import java.util.Objects;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

/**
 * Creating, editing and deleting entities in the real window's editor, each taken back with Undo, on the demo's real
 * emulator. Undo and Redo's history is checked on the view model ({@code ui.entities.EntitiesViewModelTest}).
 */
class EntityEditingTest extends DemoWindowTest {
    @Test
    void createAnEntityWithTypedFieldsAndSeeInvalidInputBesideItsField() {
        Datastore datastore = demoDatastore();
        Key key = datastore.newKeyFactory().setKind("Account").newKey("made-in-ui");
        robot.clickOn("#newEntity");
        Fx.waitUntil(10, () -> robot.lookup("#entityKey").tryQuery().isPresent());
        setText("#entityKey", "KEY(Account, 'made-in-ui')");
        robot.clickOn("#addProperty");
        robot.clickOn("#addProperty");
        setText("#prop-0-name", "balance");
        Fx.get(() -> {
            robot.lookup("#prop-0-type").<ComboBox<String>>query().setValue("integer");
            return null;
        });
        setText("#prop-0-value", "12.5");
        assertThat(Fx.get(() -> robot.lookup("#prop-0-error").queryLabeled().getText()))
                .isEqualTo("An integer is a whole number such as 42 or -7.");
        assertThat(Fx.get(() -> robot.lookup("#saveEntity").queryButton().isDisabled())).isTrue();
        setText("#prop-0-value", "125");
        setText("#prop-1-name", "tags");
        Fx.get(() -> {
            robot.lookup("#prop-1-type").<ComboBox<String>>query().setValue("array");
            robot.lookup("#prop-1-indexed").<CheckBox>query().setSelected(false);
            return null;
        });
        setText("#prop-1-value", "[{\"type\": \"string\", \"value\": \"vip\"}, {\"type\": \"integer\", \"value\": \"7\"}]");
        assertThat(Fx.get(() -> robot.lookup("#prop-1-error").queryLabeled().getText())).isEmpty();
        assertThat(Fx.get(() -> robot.lookup("#saveEntity").queryButton().isDisabled())).isFalse();
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(key) != null);
        Entity made = datastore.get(key);
        assertThat(made.getLong("balance")).isEqualTo(125);
        assertThat(made.<Value<?>>getList("tags").stream().map(v -> (Object) v.get()).toList()).containsExactly("vip", 7L);
        assertThat(made.<Value<?>>getList("tags"))
                .allSatisfy(v -> assertThat(v.excludeFromIndexes()).isTrue());
        Fx.waitUntil(10, () -> !robot.lookup("#undoEdit").queryButton().isDisabled());
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(key) == null);
    }

    @Test
    void editAnEntitysValueAndIndexFlagThenUndoIt() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Entity original = Fx.get(() -> {
            table.getSelectionModel().clearAndSelect(3);
            return table.getItems().get(3);
        });
        @SuppressWarnings("unchecked")
        TableColumn<Entity, ?> balance = Fx.get(() -> (TableColumn<Entity, ?>)
                table.getColumns().stream().filter(c -> c.getText().equals("balance")).findFirst().orElseThrow());
        assertThat(Fx.get(() -> balance.getCellData(original))).isEqualTo(String.valueOf(original.getLong("balance")));
        robot.clickOn("#editEntity");
        Fx.waitUntil(10, () -> robot.lookup("#prop-1-name").tryQuery().isPresent());
        assertThat(Fx.get(() -> robot.lookup("#prop-1-name").queryTextInputControl().getText())).isEqualTo("balance");
        setText("#prop-1-value", "not a number");
        assertThat(Fx.get(() -> robot.lookup("#prop-1-error").queryLabeled().getText())).contains("whole number");
        setText("#prop-1-value", "777");
        Fx.get(() -> {
            robot.lookup("#prop-1-indexed").<CheckBox>query().setSelected(false);
            return null;
        });
        robot.clickOn("#saveEntity");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).getLong("balance") == 777);
        Entity saved = datastore.get(original.getKey());
        assertThat(saved.getValue("balance").excludeFromIndexes()).isTrue();
        assertThat(saved.getString("tier")).isEqualTo(original.getString("tier"));
        Fx.waitUntil(10, () -> Fx.get(() -> robot.lookup("#editStatus").queryLabeled().getText()).startsWith("Done"));
        // the table shows the saved value (rendered when its page was read, or when asked for if not read since)
        Fx.waitUntil(30, () -> table.getItems().stream().anyMatch(e -> e.getKey().equals(original.getKey())
                && "777".equals(balance.getCellData(e))));
        // Undo and Redo's history: ui.entities.EntitiesViewModelTest
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.get(original.getKey()).equals(original));
        Fx.waitUntil(10, () -> labelText("#editStatus").startsWith("Undone: edit "));
        assertThat(Fx.get(() -> robot.lookup("#undoEdit").queryButton().isDisabled())).isTrue();
        assertThat(Fx.get(() -> robot.lookup("#redoEdit").queryButton().isDisabled())).isFalse();
    }

    @Test
    void deleteASelectionThenUndoBringsItBack() {
        Datastore datastore = demoDatastore();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        List<Entity> chosen = Fx.get(() -> {
            table.getSelectionModel().clearSelection();
            table.getSelectionModel().selectIndices(5, 6, 7);
            return List.copyOf(table.getSelectionModel().getSelectedItems());
        });
        assertThat(chosen).hasSize(3);
        robot.clickOn("#deleteEntities");
        robot.clickOn("OK");
        Key[] keys = chosen.stream().map(Entity::getKey).toArray(Key[]::new);
        Fx.waitUntil(30, () -> datastore.fetch(keys).stream().allMatch(Objects::isNull));
        Fx.waitUntil(10, () -> !robot.lookup("#undoEdit").queryButton().isDisabled()
                && Fx.get(() -> robot.lookup("#editStatus").queryLabeled().getText()).startsWith("Done"));
        robot.clickOn("#undoEdit");
        Fx.waitUntil(30, () -> datastore.fetch(keys).equals(chosen));
    }
}
