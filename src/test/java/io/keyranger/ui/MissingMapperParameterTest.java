package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import io.keyranger.support.DemoWindowTest;
import io.keyranger.support.Fx;
import javafx.scene.control.ComboBox;
import org.junit.jupiter.api.Test;

/**
 * A mapper missing a required parameter (an increment with no amount) is refused beside the field, in the words the
 * CLI uses, and keeps Run (Mapper tab) and Start (Run tab) off: it never gets as far as "Something went wrong".
 */
class MissingMapperParameterTest extends DemoWindowTest {

    @Test
    void theMapperFormSaysTheMissingAmountBesideItAndKeepsRunOff() {
        clickTab("Mapper");
        ComboBox<Template> template = robot.lookup("#templateChoice").queryComboBox();
        Fx.on(() -> template.setValue(Mappers.template("increment")));
        setText("#param-property", "balance");
        setText("#param-amount", "");
        Fx.waitUntil(5, () -> !labelText("#param-amountError").isEmpty());
        assertThat(Fx.get(() -> robot.lookup("#runNow").query().isDisabled())).as("Run is off").isTrue();

        setText("#param-amount", "10");
        Fx.waitUntil(5, () -> labelText("#param-amountError").isEmpty());
        assertThat(Fx.get(() -> robot.lookup("#runNow").query().isDisabled())).as("Run is on again").isFalse();
    }

    @Test
    void theRunTabSaysTheMissingAmountUnderTheMapperAndKeepsStartOff() {
        clickTab("Run");
        setText("#mapperJson", "{\"template\":\"increment\",\"property\":\"x\"}");
        Fx.waitUntil(5, () -> robot.lookup("#mapperProblem").query().isVisible());
        assertThat(labelText("#mapperProblem"))
                .startsWith("Parameter 'amount' of template 'increment' is required");
        assertThat(Fx.get(() -> robot.lookup("#startJob").query().isDisabled())).as("Start is off").isTrue();

        setText("#mapperJson", "{\"template\":\"increment\",\"property\":\"x\",\"amount\":1}");
        Fx.waitUntil(5, () -> !robot.lookup("#mapperProblem").query().isVisible());
        assertThat(Fx.get(() -> robot.lookup("#startJob").query().isDisabled())).as("Start is on again").isFalse();
        setText("#mapperJson", "{\"template\":\"count\"}");
    }
}
