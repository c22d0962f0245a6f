package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Run tab's form, no window: the mapper as the tab shows it, by its template and parameters. */
class JobFormTest {
    @Test
    void theMapperIsSummedUpByItsTemplateOrSaysItsJsonIsNotValid() {
        JobForm form = new JobForm();
        form.mapperJsonProperty().set("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}");
        assertThat(form.mapperSummary().getValue()).isEqualTo("increment · property balance · amount 10");
        form.mapperJsonProperty().set("{\"template\": ");
        assertThat(form.mapperSummary().getValue()).startsWith("The mapper's JSON is not valid");
    }
}
