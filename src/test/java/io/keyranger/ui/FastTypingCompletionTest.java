package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * GQL typed into the Entities tab's query box, then Enter: the query that runs is exactly what was typed, with
 * completions offered on the way (the word "balanc", say) never applied to the text typed since. No step waits a
 * time: each waits for the FX thread's queue to drain, or polls for an outcome. {@code ui.common.CompleterTest}
 * drives the completer itself, a stale suggestion and a current one.
 */
class FastTypingCompletionTest extends DemoWindowTest {
    private static final String TYPED = "SELECT * FROM Account ORDER BY balance DESC";

    @Test
    void enterRunsTheQueryAsTypedNotAsAnOlderSuggestionWouldHaveIt() {
        long highest = maxBalance();
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        typeThenEnter("#gqlQuery");
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1") && !table.getItems().isEmpty());
        assertThat(Fx.get(() -> table.getItems().get(0).getLong("balance"))).isEqualTo(highest);
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
    }

    /**
     * Keys that reach a busy FX thread together (here "balanc", handled in one go as when the window was drawing)
     * then the rest and Enter at once, as a fast typist does: still exactly what was typed.
     */
    @Test
    void keysThatArriveTogetherNeverBringBackASuggestionForAnOlderText() {
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Fx.get(() -> {
            robot.lookup("#gqlQuery").queryTextInputControl().clear();
            return null;
        });
        robot.clickOn("#gqlQuery");
        robot.write("SELECT * FROM Account ORDER BY ");
        Fx.get(() -> {
            Node box = robot.lookup("#gqlQuery").query();
            for (char c : "balanc".toCharArray()) {
                box.fireEvent(new KeyEvent(KeyEvent.KEY_TYPED,
                        String.valueOf(c), "", KeyCode.UNDEFINED, false, false, false, false));
            }
            return null;
        });
        robot.write("e DESC");
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1") && !table.getItems().isEmpty());
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
    }

    private void typeThenEnter(String id) {
        Fx.get(() -> {
            robot.lookup(id).queryTextInputControl().clear();
            return null;
        });
        robot.clickOn(id);
        robot.write(TYPED);
        WaitForAsyncUtils.waitForFxEvents();
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String text(String id) {
        return Fx.get(() -> robot.lookup(id).queryTextInputControl().getText());
    }

    private long maxBalance() {
        long[] max = {Long.MIN_VALUE};
        demoDatastore().run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> max[0] = Math.max(max[0], e.getLong("balance")));
        return max[0];
    }
}
