package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.app.KeyRangerApp;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.run.JobForm;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What a user types into the real window, key by key. The Run tab's settings: what is typed is checked beside its
 * field and never changed. The Mapper tab's form and dry runs are checked on its view model
 * ({@code ui.mapper.MapperViewModelTest}).
 * <p>
 * GQL typed into the Entities tab's query box, then Enter: the query that runs is exactly what was typed, with
 * completions offered on the way (the word "balanc", say) never applied to the text typed since. No step waits a
 * time: each waits for the FX thread's queue to drain, or polls for an outcome. {@code ui.common.CompleterTest}
 * drives the completer itself, a stale suggestion and a current one.
 */
class TypingTest extends DemoWindowTest {
    private static final String TYPED = "SELECT * FROM Account ORDER BY balance DESC";

    private JobForm form() {
        return ((KeyRangerApp) app).model().run().form();
    }

    @Test
    void aClearedOrOutOfRangeNumberIsSaidBesideItsFieldAndKeepsStartOff() {
        clickTab("Run");
        Spinner<Integer> workers = robot.lookup("#jobWorkers").query();
        Spinner<Integer> pageSize = robot.lookup("#jobPageSize").query();
        Button start = robot.lookup("#startJob").queryButton();
        Fx.waitUntil(10, () -> !start.isDisabled());
        int workersBefore = Fx.get(() -> form().workersProperty().get());
        int pageBefore = Fx.get(() -> form().pageSizeProperty().get());

        // select all in Workers, delete it, press Tab
        robot.clickOn(workers.getEditor()).push(KeyCode.CONTROL, KeyCode.A).type(KeyCode.BACK_SPACE).type(KeyCode.TAB);
        Fx.waitUntil(10, () -> !labelText("#jobWorkersError").isEmpty());
        assertThat(labelText("#jobWorkersError")).isEqualTo("The workers must be a whole number between 1 and 512.");
        assertThat(Fx.get(() -> workers.getEditor().getText())).as("the field as the user left it").isEmpty();
        assertThat(Fx.get(() -> form().workersProperty().get())).isEqualTo(workersBefore);
        assertThat(Fx.get(start::isDisabled)).as("Start stays off").isTrue();

        // -10 is not turned into 1 (20,000 one-entity pages): it stays, and says why it is refused
        robot.clickOn(pageSize.getEditor()).push(KeyCode.CONTROL, KeyCode.A).write("-10").type(KeyCode.TAB);
        Fx.waitUntil(10, () -> !labelText("#jobPageSizeError").isEmpty());
        assertThat(labelText("#jobPageSizeError")).isEqualTo("The page size must be a whole number between 1 and 5000.");
        assertThat(Fx.get(() -> pageSize.getEditor().getText())).isEqualTo("-10");
        assertThat(Fx.get(() -> form().pageSizeProperty().get())).isEqualTo(pageBefore);

        robot.clickOn(workers.getEditor()).push(KeyCode.CONTROL, KeyCode.A).write("3").type(KeyCode.TAB);
        assertThat(Fx.get(start::isDisabled)).as("one field still wrong").isTrue();
        robot.clickOn(pageSize.getEditor()).push(KeyCode.CONTROL, KeyCode.A).write("40").type(KeyCode.TAB);
        Fx.waitUntil(10, () -> !start.isDisabled());
        assertThat(labelText("#jobWorkersError")).isEmpty();
        assertThat(labelText("#jobPageSizeError")).isEmpty();
        assertThat(Fx.get(() -> form().workersProperty().get())).isEqualTo(3);
        assertThat(Fx.get(() -> form().pageSizeProperty().get())).isEqualTo(40);
        assertThat(Fx.get(workers::getValue)).isEqualTo(3);
    }

    /** The summary's words for any JSON: {@code ui.run.JobFormTest}. */
    @Test
    void theRunTabShowsTheMapperByItsTemplateWithItsJsonOneClickAway() {
        clickTab("Run");
        Fx.get(() -> {
            form().mapperJsonProperty().set("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}");
            return null;
        });
        assertThat(labelText("#mapperSummary")).isEqualTo("increment · property balance · amount 10");
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").query().isVisible())).isFalse();
        robot.clickOn("#showMapperJson");
        assertThat(Fx.get(() -> robot.lookup("#mapperJson").query().isVisible())).isTrue();
        assertThat(Fx.get(() -> robot.lookup("#mapperSummary").query().isVisible())).isFalse();
        robot.clickOn("#showMapperJson");
        Fx.get(() -> {
            form().mapperJsonProperty().set("{\"template\":\"count\"}");
            return null;
        });
    }

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
