package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import io.keyranger.ui.run.JobForm;
import javafx.scene.control.Button;
import javafx.scene.control.Spinner;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;

/**
 * The Run tab's settings in the real window: what a user types is checked beside its field and never changed. The
 * Mapper tab's form and dry runs are checked on its view model ({@code ui.mapper.MapperViewModelTest}).
 */
class FormsTest extends DemoWindowTest {
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
}
