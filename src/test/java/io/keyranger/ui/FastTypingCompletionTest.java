package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;

/**
 * GQL typed as fast as a person types (30 ms a key), a short pause, then Enter: the query that runs is exactly what
 * was typed. Completions offered for an earlier text (the word "balanc", say) are never applied to the text typed
 * since; the Run tab's and the Mapper's GQL boxes keep what was typed too.
 */
class FastTypingCompletionTest extends DemoWindowTest {
    private static final String TYPED = "SELECT * FROM Account ORDER BY balance DESC";
    private static final int KEY_MILLIS = 30;
    /** A person's pause before Enter: long enough for a list computed for an older text to land, if one could. */
    private static final int PAUSE_MILLIS = 800;

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
     * then the rest at 30 ms a key and Enter at once, as a fast typist does: still exactly what was typed.
     */
    @Test
    void keysThatArriveTogetherNeverBringBackASuggestionForAnOlderText() {
        TableView<Entity> table = robot.lookup("#entityTable").queryTableView();
        Fx.get(() -> {
            robot.lookup("#gqlQuery").queryTextInputControl().clear();
            return null;
        });
        robot.clickOn("#gqlQuery");
        robot.write("SELECT * FROM Account ORDER BY ", KEY_MILLIS);
        Fx.get(() -> {
            javafx.scene.Node box = robot.lookup("#gqlQuery").query();
            for (char c : "balanc".toCharArray()) {
                box.fireEvent(new javafx.scene.input.KeyEvent(javafx.scene.input.KeyEvent.KEY_TYPED,
                        String.valueOf(c), "", KeyCode.UNDEFINED, false, false, false, false));
            }
            return null;
        });
        robot.write("e DESC", KEY_MILLIS);
        robot.sleep(120);
        robot.type(KeyCode.ENTER);
        org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
        robot.sleep(400);
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
        Fx.waitUntil(30, () -> title().startsWith("Account (query): page 1") && !table.getItems().isEmpty());
        assertThat(text("#gqlQuery")).isEqualTo(TYPED);
    }

    @Test
    void theRunTabsAndTheMappersQueryBoxesKeepWhatWasTyped() {
        clickTab("Run");
        typeThenEnter("#jobGql");
        assertThat(text("#jobGql")).isEqualTo(TYPED);
        clickTab("Mapper");
        typeThenEnter("#mapperGql");
        assertThat(text("#mapperGql")).isEqualTo(TYPED);
    }

    private void typeThenEnter(String id) {
        Fx.get(() -> {
            robot.lookup(id).queryTextInputControl().clear();
            return null;
        });
        robot.clickOn(id);
        robot.write(TYPED, KEY_MILLIS);
        robot.sleep(PAUSE_MILLIS);
        robot.type(KeyCode.ENTER);
        org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
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
